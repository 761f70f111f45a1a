package org.rocshmem.api.hip;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Both ways of asking HIP about a module's kernel give the same values (no rocSHMEM session needed). */
@Tag("emu")
class KernelAttributesTest {

    @Test
    void hipFuncGetAttributesAndTheAttributeByAttributeFormAgree() {
        try (HipModule module = HipModule.loadResource("kernels/probes")) {
            Kernel echo = module.kernel("echo");
            KernelAttributes attributes = echo.attributes();
            assertEquals(attributes, echo.attributesOneByOne());
            assertEquals(1024, attributes.maxThreadsPerBlock());
        }
    }
}
