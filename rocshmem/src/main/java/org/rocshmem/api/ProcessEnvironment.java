package org.rocshmem.api;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;

/**
 * The C library's {@code setenv}, for the settings that the API provisions before rocSHMEM reads them (rocSHMEM reads
 * its variables once, while its library loads, from the C environment, which {@link System#getenv()} does not
 * change). Compiled into the HIP JNI library, which loads before rocSHMEM's and links no rocSHMEM.
 */
@Properties(inherit = org.rocshmem.presets.hip.class, value = @Platform(include = "<stdlib.h>", library = "jnihip"))
@NoException
final class ProcessEnvironment {
    static {
        Loader.load();
    }

    private ProcessEnvironment() {
    }

    /** setenv(3): 0 on success. */
    static native int setenv(@Cast("const char*") String name, @Cast("const char*") String value, int overwrite);
}
