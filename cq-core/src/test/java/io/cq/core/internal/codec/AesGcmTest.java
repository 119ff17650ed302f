package io.cq.core.internal.codec;

import io.cq.core.support.AllocatedBytes;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AesGcmTest {
    private static final int[] AAD_LENGTHS = {0, 1, 8, 15, 16, 17, 40};

    private static byte[] random(Random random, int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] jce(int mode, SecretKey key, byte[] nonce, byte[] aad, byte[] input) throws Exception {
        Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(mode, key, new GCMParameterSpec(128, nonce));
        gcm.updateAAD(aad);
        return gcm.doFinal(input);
    }

    @Test
    void shouldSealExactlyAsTheJcesGcmDoesForEveryKeySizeNonceAndLength() throws Exception {
        Random random = new Random(0x5EA1);
        AesGcm gcm = new AesGcm();
        for (int round = 0; round < 3_000; round++) {
            SecretKey key = new SecretKeySpec(random(random, new int[] {16, 24, 32}[random.nextInt(3)]), "AES");
            byte[] nonce = random(random, 12);
            byte[] aad = random(random, AAD_LENGTHS[random.nextInt(AAD_LENGTHS.length)]);
            int length = round < 600 ? round % 300 : random.nextInt(AesGcm.MAX_LENGTH + 1);
            byte[] plain = random(random, length);
            int at = random.nextInt(9);
            byte[] in = new byte[at + length];
            System.arraycopy(plain, 0, in, at, length);
            byte[] out = new byte[3 + length + 16];

            gcm.key(key);
            int written = gcm.seal(nonce, aad, aad.length, in, at, length, out, 3);

            assertThat(written).isEqualTo(length + 16);
            assertThat(Arrays.copyOfRange(out, 3, 3 + written))
                    .as("round %d, %d bytes, %d of associated data", round, length, aad.length)
                    .isEqualTo(jce(Cipher.ENCRYPT_MODE, key, nonce, aad, plain));
        }
    }

    @Test
    void shouldOpenWhatTheJcesGcmSealed() throws Exception {
        Random random = new Random(0x0BE7);
        AesGcm gcm = new AesGcm();
        for (int round = 0; round < 2_000; round++) {
            SecretKey key = new SecretKeySpec(random(random, new int[] {16, 24, 32}[random.nextInt(3)]), "AES");
            byte[] nonce = random(random, 12);
            byte[] aad = random(random, AAD_LENGTHS[random.nextInt(AAD_LENGTHS.length)]);
            byte[] plain = random(random, random.nextInt(round < 1_000 ? 200 : 3_000));
            byte[] sealed = jce(Cipher.ENCRYPT_MODE, key, nonce, aad, plain);
            byte[] out = new byte[plain.length + 5];

            gcm.key(key);
            int opened = gcm.open(nonce, aad, aad.length, sealed, 0, sealed.length, out, 5);

            assertThat(opened).isEqualTo(plain.length);
            assertThat(Arrays.copyOfRange(out, 5, 5 + opened)).isEqualTo(plain);
        }
    }

    @Test
    void shouldRefuseEveryAlteredByteOfCiphertextTagNonceOrAssociatedData() throws Exception {
        Random random = new Random(0x7A9);
        SecretKey key = new SecretKeySpec(random(random, 16), "AES");
        byte[] nonce = random(random, 12);
        byte[] aad = random(random, 8);
        byte[] plain = random(random, 57);
        byte[] sealed = jce(Cipher.ENCRYPT_MODE, key, nonce, aad, plain);
        AesGcm gcm = new AesGcm();
        gcm.key(key);
        byte[] out = new byte[plain.length];

        for (int i = 0; i < sealed.length; i++) {
            byte[] altered = sealed.clone();
            altered[i] ^= (byte) (1 << random.nextInt(8));
            assertThat(gcm.open(nonce, aad, aad.length, altered, 0, altered.length, out, 0)).as("byte %d", i)
                    .isEqualTo(-1);
        }
        for (int i = 0; i < nonce.length; i++) {
            byte[] altered = nonce.clone();
            altered[i] ^= 1;
            assertThat(gcm.open(altered, aad, aad.length, sealed, 0, sealed.length, out, 0)).isEqualTo(-1);
        }
        for (int i = 0; i < aad.length; i++) {
            byte[] altered = aad.clone();
            altered[i] ^= (byte) 0x80;
            assertThat(gcm.open(nonce, altered, altered.length, sealed, 0, sealed.length, out, 0)).isEqualTo(-1);
        }
        assertThat(out).as("nothing decrypted from a refused excerpt").containsOnly(0);
    }

    @Test
    void shouldRefuseAnotherKeysCiphertextAndOneShorterThanItsTag() throws Exception {
        Random random = new Random(0xC0DE);
        byte[] nonce = random(random, 12);
        byte[] aad = random(random, 8);
        byte[] sealed = jce(Cipher.ENCRYPT_MODE, new SecretKeySpec(random(random, 16), "AES"), nonce, aad,
                random(random, 40));
        AesGcm gcm = new AesGcm();
        gcm.key(new SecretKeySpec(random(random, 16), "AES"));
        byte[] out = new byte[64];

        assertThat(gcm.open(nonce, aad, aad.length, sealed, 0, sealed.length, out, 0)).isEqualTo(-1);
        assertThat(gcm.open(nonce, aad, aad.length, sealed, 0, 15, out, 0)).isEqualTo(-1);
    }

    @Test
    void shouldRefuseTamperingWithAnEmptyExcerptsTag() throws Exception {
        Random random = new Random(0xE4);
        SecretKey key = new SecretKeySpec(random(random, 16), "AES");
        byte[] nonce = random(random, 12);
        byte[] aad = random(random, 8);
        byte[] sealed = jce(Cipher.ENCRYPT_MODE, key, nonce, aad, new byte[0]);
        AesGcm gcm = new AesGcm();
        gcm.key(key);

        assertThat(gcm.open(nonce, aad, aad.length, sealed, 0, sealed.length, new byte[0], 0)).isZero();
        for (int i = 0; i < sealed.length; i++) {
            byte[] altered = sealed.clone();
            altered[i] ^= 0x40;
            assertThat(gcm.open(nonce, aad, aad.length, altered, 0, altered.length, new byte[0], 0)).isEqualTo(-1);
        }
    }

    @Test
    void shouldRefuseACiphertextCutShortOrLengthenedWithItsTagKept() throws Exception {
        Random random = new Random(0x5C);
        SecretKey key = new SecretKeySpec(random(random, 16), "AES");
        byte[] nonce = random(random, 12);
        byte[] aad = random(random, 8);
        byte[] plain = random(random, 50);
        byte[] sealed = jce(Cipher.ENCRYPT_MODE, key, nonce, aad, plain);
        byte[] tag = Arrays.copyOfRange(sealed, plain.length, sealed.length);
        AesGcm gcm = new AesGcm();
        gcm.key(key);
        byte[] out = new byte[64];

        byte[] shorter = new byte[sealed.length - 1];
        System.arraycopy(sealed, 0, shorter, 0, plain.length - 1);
        System.arraycopy(tag, 0, shorter, plain.length - 1, 16);
        byte[] longer = new byte[sealed.length + 1];
        System.arraycopy(sealed, 0, longer, 0, plain.length);
        System.arraycopy(tag, 0, longer, plain.length + 1, 16);

        assertThat(gcm.open(nonce, aad, aad.length, shorter, 0, shorter.length, out, 0)).isEqualTo(-1);
        assertThat(gcm.open(nonce, aad, aad.length, longer, 0, longer.length, out, 0)).isEqualTo(-1);
        assertThat(gcm.open(nonce, aad, 7, sealed, 0, sealed.length, out, 0)).as("associated data cut").isEqualTo(-1);
    }

    @Test
    void shouldTakeEachKeyItIsGivenWhenKeysAlternate() throws Exception {
        Random random = new Random(0xAB);
        SecretKey first = new SecretKeySpec(random(random, 16), "AES");
        SecretKey second = new SecretKeySpec(random(random, 32), "AES");
        byte[] nonce = random(random, 12);
        byte[] aad = random(random, 8);
        byte[] plain = random(random, 70);
        AesGcm gcm = new AesGcm();
        byte[] out = new byte[plain.length + 16];

        for (SecretKey key : new SecretKey[] {first, second, first, second}) {
            gcm.key(key);
            gcm.seal(nonce, aad, aad.length, plain, 0, plain.length, out, 0);
            assertThat(out).isEqualTo(jce(Cipher.ENCRYPT_MODE, key, nonce, aad, plain));
        }
    }

    @Test
    void shouldOpenEitherWayWhatEitherWaySealedAroundTheChoiceOfComputation() throws Exception {
        Random random = new Random(0x160);
        SecretKey key = new SecretKeySpec(random(random, 16), "AES");
        byte[] aad = random(random, 8);
        ExcerptGcm gcm = new ExcerptGcm();
        for (int length = ExcerptGcm.OWN_UP_TO - 3; length <= ExcerptGcm.OWN_UP_TO + 3; length++) {
            byte[] nonce = random(random, 12);
            byte[] plain = random(random, length);
            byte[] sealed = new byte[5 + length + 16];

            int n = gcm.seal(key, nonce, aad, plain, length, sealed, 5);
            byte[] ours = Arrays.copyOfRange(sealed, 5, 5 + n);
            byte[] opened = new byte[length];

            assertThat(ours).as("%d bytes", length).isEqualTo(jce(Cipher.ENCRYPT_MODE, key, nonce, aad, plain));
            assertThat(jce(Cipher.DECRYPT_MODE, key, nonce, aad, ours)).isEqualTo(plain);
            assertThat(gcm.open(key, nonce, aad, ours, ours.length, opened)).isEqualTo(length);
            assertThat(opened).isEqualTo(plain);
            ours[random.nextInt(ours.length)] ^= 1;
            assertThatThrownBy(() -> gcm.open(key, nonce, aad, ours, ours.length, opened))
                    .isInstanceOf(AEADBadTagException.class);
        }
    }

    @Test
    void shouldRefuseAnExcerptLongerThanItsLimit() {
        AesGcm gcm = new AesGcm();
        gcm.key(new SecretKeySpec(new byte[16], "AES"));
        byte[] big = new byte[AesGcm.MAX_LENGTH + 1];

        assertThatThrownBy(() -> gcm.seal(new byte[12], new byte[0], 0, big, 0, big.length, new byte[big.length + 16],
                0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 4096");
    }

    @Test
    void shouldAllocateNothingPerExcerptOnceKeyed() {
        Random random = new Random(1);
        AesGcm gcm = new AesGcm();
        gcm.key(new SecretKeySpec(random(random, 16), "AES"));
        byte[] nonce = random(random, 12);
        byte[] aad = random(random, 8);
        byte[] plain = random(random, 1_024);
        byte[] sealed = new byte[plain.length + 16];
        byte[] opened = new byte[plain.length];
        for (int i = 0; i < 20_000; i++) {
            nonce[11] = (byte) i;
            int n = gcm.seal(nonce, aad, aad.length, plain, 0, 40 + i % 900, sealed, 0);
            gcm.open(nonce, aad, aad.length, sealed, 0, n, opened, 0);
        }

        long before = AllocatedBytes.now();
        for (int i = 0; i < 100_000; i++) {
            nonce[11] = (byte) i;
            int n = gcm.seal(nonce, aad, aad.length, plain, 0, 40 + i % 900, sealed, 0);
            gcm.open(nonce, aad, aad.length, sealed, 0, n, opened, 0);
        }
        long allocated = AllocatedBytes.since(before);

        assertThat(allocated).as("bytes allocated by 100,000 seals and opens").isLessThan(100_000);
    }
}
