package org.rocshmem.hip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocshmem.global.hip.*;

import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipException;
import org.rocshmem.testsupport.NativeBuild;

/**
 * Runs against the real libamdhip64 from Debian's archive on a machine without an AMD GPU
 * (Surefire execution "real-hip-test", JVM started through sid's loader).
 */
@Tag("real-hip")
class RealHipNoDeviceTest {

    @Test
    void deviceCountReportsNoDevice() {
        int[] count = {-1};
        assertEquals(hipErrorNoDevice, hipGetDeviceCount(count));
        assertEquals(0, count[0]);
    }

    @Test
    void runtimeAndDriverReportThePackagedVersion() throws Exception {
        Matcher pinned = Pattern.compile("libamdhip64-dev\\s+(\\d+)\\.(\\d+)\\.")
                .matcher(Files.readString(NativeBuild.moduleDir().resolve("hip-debian.lock")));
        assertTrue(pinned.find(), "libamdhip64-dev not pinned in hip-debian.lock");
        assertEquals(Integer.parseInt(pinned.group(1)), HIP_VERSION_MAJOR);
        assertEquals(Integer.parseInt(pinned.group(2)), HIP_VERSION_MINOR);

        int[] version = {0};
        assertEquals(hipSuccess, hipRuntimeGetVersion(version));
        assertEquals(HIP_VERSION, version[0]);
        version[0] = 0;
        assertEquals(hipSuccess, hipDriverGetVersion(version));
        assertEquals(HIP_VERSION, version[0]);
    }

    @Test
    void errorNamesAndStrings() {
        assertEquals("hipSuccess", hipGetErrorName(hipSuccess).getString());
        assertEquals("hipErrorInvalidValue", hipGetErrorName(hipErrorInvalidValue).getString());
        assertEquals("hipErrorOutOfMemory", hipGetErrorName(hipErrorOutOfMemory).getString());
        assertEquals("hipErrorNoDevice", hipGetErrorName(hipErrorNoDevice).getString());
        assertEquals("hipErrorNotSupported", hipGetErrorName(hipErrorNotSupported).getString());
        assertEquals("no error", hipGetErrorString(hipSuccess).getString());
        assertEquals("invalid argument", hipGetErrorString(hipErrorInvalidValue).getString());
        assertEquals("out of memory", hipGetErrorString(hipErrorOutOfMemory).getString());
        assertEquals("no ROCm-capable device is detected", hipGetErrorString(hipErrorNoDevice).getString());
    }

    @Test
    void deviceCallsFailWithAnErrorCodeInsteadOfCrashing() {
        PointerPointer<Pointer> out = new PointerPointer<>(1);
        assertEquals(hipErrorNoDevice, hipMalloc(out, 1024));
        assertEquals(hipErrorNoDevice, hipSetDevice(0));
        ihipStream_t stream = new ihipStream_t();
        assertEquals(hipErrorNoDevice, hipStreamCreate(stream));
        assertTrue(stream.isNull(), "no stream may be created without a device");
        assertEquals(hipErrorNoDevice, hipDeviceSynchronize());
    }

    @Test
    void checkTurnsTheStatusIntoANamedException() {
        HipException e = assertThrows(HipException.class,
                () -> HipException.check(hipMalloc(new PointerPointer<Pointer>(1), 64), "hipMalloc"));
        assertEquals(hipErrorNoDevice, e.code());
        assertEquals("hipErrorNoDevice", e.errorName());
        assertEquals("no ROCm-capable device is detected", e.description());
        assertEquals("hipMalloc failed: hipErrorNoDevice (100): no ROCm-capable device is detected", e.getMessage());
    }
}
