package io.cq.core.internal.message;

import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * Generates, with the ClassFile API, one hidden {@link MethodInvoker} per interface method, cached per
 * interface. Its body is a typed call, so primitives go from the cursor to the handler without boxing:
 *
 * <pre>
 * public void invoke(Object handler, ArgumentDecoder arguments) {
 *     ((OrderEvents) handler).onOrder(arguments.readLong(), (Order) arguments.readDocument(1));
 * }
 * </pre>
 */
final class InvokerClassGenerator {
    private static final ClassDesc INVOKER = ClassDesc.of(MethodInvoker.class.getName());
    private static final ClassDesc DECODER = ClassDesc.of(ArgumentDecoder.class.getName());
    private static final MethodTypeDesc INVOKE = MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_Object,
            DECODER);

    private static final ClassValue<Map<String, MethodInvoker>> INVOKERS = new ClassValue<>() {
        @Override
        protected Map<String, MethodInvoker> computeValue(Class<?> type) {
            Map<String, MethodInvoker> invokers = new HashMap<>();
            for (Method method : WriterPlan.messageMethods(type)) {
                invokers.put(method.getName(), generate(type, method));
            }
            return Map.copyOf(invokers);
        }
    };

    private InvokerClassGenerator() {
    }

    /** The invoker of {@code method}, one of the message methods of interface {@code type}. */
    static MethodInvoker invoker(Class<?> type, Method method) {
        return INVOKERS.get(type).get(method.getName());
    }

    private static MethodInvoker generate(Class<?> type, Method method) {
        ClassDesc interfaceDesc = HiddenClasses.describe(type);
        ClassDesc self = ClassDesc.of(type.getName() + "$CqInvoker$" + method.getName());
        byte[] bytes = ClassFile.of().build(self, cls -> cls
                .withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC)
                .withSuperclass(ConstantDescs.CD_Object)
                .withInterfaceSymbols(INVOKER)
                .withMethodBody(ConstantDescs.INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_PUBLIC, code -> code
                        .aload(0)
                        .invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void)
                        .return_())
                .withMethodBody("invoke", INVOKE, ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL,
                        code -> invokeBody(code, interfaceDesc, method)));
        MethodHandles.Lookup lookup = HiddenClasses.define(type, bytes);
        try {
            return (MethodInvoker) lookup.findConstructor(lookup.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("cannot instantiate the generated invoker of "
                    + WriterPlan.describe(method), e);
        }
    }

    private static void invokeBody(CodeBuilder code, ClassDesc interfaceDesc, Method method) {
        code.aload(1).checkcast(interfaceDesc);
        Class<?>[] parameters = method.getParameterTypes();
        for (int slot = 0; slot < parameters.length; slot++) {
            Class<?> parameter = parameters[slot];
            ArgumentKind kind = ArgumentKind.of(parameter);
            code.aload(2);
            if (kind.takesSlot()) {
                code.loadConstant(slot);
                code.invokevirtual(DECODER, kind.decoderMethod,
                        MethodTypeDesc.of(kind.decodedType, ConstantDescs.CD_int));
                code.checkcast(HiddenClasses.describe(parameter));
            } else {
                code.invokevirtual(DECODER, kind.decoderMethod, MethodTypeDesc.of(kind.decodedType));
            }
        }
        code.invokeinterface(interfaceDesc, method.getName(), WriterPlan.descriptor(method));
        Class<?> returned = method.getReturnType();
        if (returned != void.class) {
            // Handlers may return a value (a fluent interface returns itself); the reader has no use for it.
            TypeKind kind = TypeKind.from(returned);
            if (kind.slotSize() == 2) {
                code.pop2();
            } else {
                code.pop();
            }
        }
        code.return_();
    }
}
