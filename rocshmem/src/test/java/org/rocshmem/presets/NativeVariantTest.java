package org.rocshmem.presets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.bytedeco.javacpp.Loader;
import org.junit.jupiter.api.Test;

/** The variant is read from the platform directory a JNI library sits in. */
class NativeVariantTest {
    @Test
    void aLibraryBelongsToTheVariantOfItsPlatformDirectory() {
        String platform = Loader.getPlatform();
        Path dir = Path.of("/cache/org/rocshmem");
        assertEquals(NativeVariant.EMULATOR, NativeVariant.ofLibrary(dir.resolve(platform + "-emu/libjnihip.so")));
        assertEquals(NativeVariant.GPU, NativeVariant.ofLibrary(dir.resolve(platform + "/libjnihip.so")));
        assertNull(NativeVariant.ofLibrary(dir.resolve(platform + "-gpu2/libjnihip.so")));
        assertNull(NativeVariant.ofLibrary(Path.of("libjnihip.so")));
        assertEquals(platform + NativeVariant.EMULATOR_EXTENSION, NativeVariant.EMULATOR.platform());
    }
}
