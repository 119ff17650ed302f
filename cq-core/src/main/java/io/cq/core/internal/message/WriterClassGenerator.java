package io.cq.core.internal.message;

import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;

/**
 * Generates, with the ClassFile API, a hidden class implementing a method-writer interface. Each method is
 * straight-line code: {@code encoder.begin(i)}, one typed {@code encoder.argX(p)} per parameter,
 * {@code encoder.end()}. Unlike a {@link java.lang.reflect.Proxy}, nothing is boxed into an {@code Object[]}.
 *
 * <pre>
 * final class OrderEvents$CqMethodWriter implements OrderEvents {
 *     private final MessageEncoder encoder;
 *     public void onOrder(long id, Order order) {
 *         encoder.begin(3); encoder.argLong(id); encoder.argObject(order); encoder.end();
 *     }
 * }
 * </pre>
 */
final class WriterClassGenerator {
    private static final String ENCODER_FIELD = "encoder";
    private static final MethodTypeDesc BEGIN = MethodTypeDesc.of(ConstantDescs.CD_void, ConstantDescs.CD_int);
    private static final MethodTypeDesc END = MethodTypeDesc.of(ConstantDescs.CD_void);

    private WriterClassGenerator() {
    }

    /** Returns the constructor {@code (MessageEncoder) -> type} of the generated class. */
    static MethodHandle generate(Class<?> type, Method[] methods) {
        ClassDesc interfaceDesc = HiddenClasses.describe(type);
        ClassDesc self = ClassDesc.of(type.getName() + "$CqMethodWriter");
        ClassDesc encoder = ArgumentKind.encoder();
        byte[] bytes = ClassFile.of().build(self, cls -> {
            cls.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC)
                    .withSuperclass(ConstantDescs.CD_Object)
                    .withInterfaceSymbols(interfaceDesc)
                    .withField(ENCODER_FIELD, encoder, ClassFile.ACC_PRIVATE | ClassFile.ACC_FINAL)
                    .withMethodBody(ConstantDescs.INIT_NAME, MethodTypeDesc.of(ConstantDescs.CD_void, encoder),
                            ClassFile.ACC_PUBLIC, code -> code
                                    .aload(0)
                                    .invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME,
                                    ConstantDescs.MTD_void)
                                    .aload(0)
                                    .aload(1)
                                    .putfield(self, ENCODER_FIELD, encoder)
                                    .return_());
            for (int i = 0; i < methods.length; i++) {
                Method method = methods[i];
                int index = i;
                cls.withMethodBody(method.getName(), WriterPlan.descriptor(method),
                        ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL,
                        code -> writeMethod(code, self, encoder, method, index));
            }
        });
        MethodHandles.Lookup lookup = HiddenClasses.define(type, bytes);
        try {
            return lookup.findConstructor(lookup.lookupClass(),
                    MethodType.methodType(void.class, MessageEncoder.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("generated method writer for " + type.getName() + " has no constructor", e);
        }
    }

    private static void writeMethod(CodeBuilder code, ClassDesc self, ClassDesc encoder, Method method, int index) {
        code.aload(0).getfield(self, ENCODER_FIELD, encoder).loadConstant(index).invokevirtual(encoder, "begin", BEGIN);
        int slot = 1;
        for (Class<?> parameter : method.getParameterTypes()) {
            ArgumentKind kind = ArgumentKind.of(parameter);
            TypeKind typeKind = TypeKind.from(parameter);
            code.aload(0).getfield(self, ENCODER_FIELD, encoder).loadLocal(typeKind, slot);
            code.invokevirtual(encoder, kind.encoderMethod, kind.encoderType);
            slot += typeKind.slotSize();
        }
        code.aload(0).getfield(self, ENCODER_FIELD, encoder).invokevirtual(encoder, "end", END);
        if (method.getReturnType() == void.class) {
            code.return_();
        } else {
            code.aload(0).areturn();
        }
    }
}
