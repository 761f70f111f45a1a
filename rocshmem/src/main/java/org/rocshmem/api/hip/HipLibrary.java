package org.rocshmem.api.hip;

import org.bytedeco.javacpp.Loader;
import org.rocshmem.presets.NativeVariant;

/** Loads the HIP JNI library and says which native variant runs (read from its path, never from a property). */
final class HipLibrary {
    private HipLibrary() {
    }

    static NativeVariant load() {
        Loader.load(org.rocshmem.global.hip.class);
        return NativeVariant.loaded();
    }
}
