package org.rocshmem.api.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipException;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.hip.Kernel;
import org.rocshmem.api.hip.KernelAttributes;
import org.rocshmem.api.PeerAddressTable;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/**
 * Modules and launches on the emulator: loading from a resource, a file and bytes, argument packing at every C
 * width, refused argument lists (count, width, type, closed view), launches on closed objects and from a module
 * that was never initialised, attributes, globals and direct stores through the peer address table.
 */
@Tag("emu")
class KernelLaunchTest {

    // Two jobs per PE count: the emulator loads only one distinct code object per process for now (probes.emuco
    // in the first, ring.emuco in the second; see the kernel-engine note in the java-kernels report).

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void probesOnTwoPes() throws Exception {
        Rocshmem shmem = Rocshmem.current();
        argumentsArriveAtTheirCWidth(shmem);
        peerAddressTableStoresDirectly(shmem);
        loadingFromAFileAndFromBytes();
        closedObjectsRefuseLaunches(shmem);
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void probesOnFourPes() throws Exception {
        Rocshmem shmem = Rocshmem.current();
        argumentsArriveAtTheirCWidth(shmem);
        peerAddressTableStoresDirectly(shmem);
        closedObjectsRefuseLaunches(shmem);
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void ringChecksOnTwoPes() {
        Rocshmem shmem = Rocshmem.current();
        aRocshmemKernelNeedsAnInitialisedModule(shmem);
        wrongArgumentsAreRefusedBeforeTheLaunch(shmem);
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void ringChecksOnFourPes() {
        Rocshmem shmem = Rocshmem.current();
        aRocshmemKernelNeedsAnInitialisedModule(shmem);
        wrongArgumentsAreRefusedBeforeTheLaunch(shmem);
    }

    /** echo(long* out, char, short, int, long, float, double, unsigned char) writes back what it received. */
    private static void argumentsArriveAtTheirCWidth(Rocshmem shmem) {
        try (HipModule module = HipModule.loadResource("kernels/probes");
             SymmetricBuffer out = shmem.calloc(8, Long.BYTES);
             HipStream stream = HipStream.create()) {
            assertTrue(module.isEmulatorObject());
            assertEquals(List.of("echo", "store_next", "faulting"), module.kernelNames());
            Kernel echo = module.kernel("echo");
            assertEquals(OptionalInt.of(8), echo.parameterCount());
            assertFalse(echo.usesRocshmem(), "probes.hip calls no rocSHMEM function");
            for (int launch = 1; launch <= 3; launch++) { // the reused argument block carries no stale bytes
                echo.launch(Dim3.of(1), Dim3.of(64), 0, stream, out.asLongs(), (byte) -5, (short) -300, -70000 * launch,
                        -(1L << 40) - launch, 1.5f, -2.25, (byte) 200);
                stream.synchronize();
                assertArrayEquals(new long[] {-5, -300, -70000L * launch, -(1L << 40) - launch, 1500, -2250, 200, launch},
                        out.asLongs().toArray());
            }
            KernelAttributes attributes = echo.attributes();
            assertEquals(1024, attributes.maxThreadsPerBlock());
            assertTrue(attributes.maxDynamicSharedSizeBytes() > 0, attributes.toString());
            assertNotEquals(0L, module.globalAddress("launches"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> module.kernel("ehco")).getMessage()
                    .startsWith("no kernel ehco in resource kernels/probes.emuco; it has the kernels echo, store_next,"
                            + " faulting"));
        }
    }

    private static void wrongArgumentsAreRefusedBeforeTheLaunch(Rocshmem shmem) {
        try (HipModule module = HipModule.loadResource("kernels/ring");
             SymmetricBuffer buffer = shmem.calloc(128, Integer.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.initModule(module);
            Kernel ring = module.kernel("ring");
            Dim3 one = Dim3.of(1);
            assertEquals("kernel ring takes 1 parameter (int* inbox), but 2 arguments were passed",
                    assertThrows(IllegalArgumentException.class,
                            () -> ring.launch(one, one, 0, stream, buffer.asInts(), 1)).getMessage());
            assertEquals("kernel ring takes 1 parameter (int* inbox), but 0 arguments were passed",
                    assertThrows(IllegalArgumentException.class, () -> ring.launch(one, one, 0, stream)).getMessage());
            assertEquals("kernel ring: parameter 1 (int* inbox) is a pointer, but argument 1 is an int, which is not"
                    + " an address; pass an address: a view (SymmetricArray) or SymmetricBuffer, a PeerAddressTable, a"
                    + " DeviceBuffer or DeviceMemory, a JavaCPP Pointer, or DeviceAddress.of(address) for a number that"
                    + " is one (DeviceAddress.NULL for a null pointer)", assertThrows(IllegalArgumentException.class,
                    () -> ring.launch(one, one, 0, stream, 7)).getMessage());
            assertTrue(assertThrows(IllegalArgumentException.class, () -> ring.launch(one, one, 0, stream, "inbox"))
                    .getMessage().startsWith("kernel ring: argument 1 is a String, which a kernel cannot take"));
            assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> ring.launch(one, one, 0, stream, (Object) null)).getMessage().endsWith("(for a null pointer"
                    + " pass DeviceAddress.NULL)"));
            // HIP's own refusal names the kernel, the module, the configuration and the stream in words
            HipException tooBig = assertThrows(HipException.class,
                    () -> ring.launch(one, Dim3.of(2048), 0, stream, buffer.asInts()));
            assertEquals("hipErrorInvalidConfiguration", tooBig.errorName());
            assertTrue(tooBig.getMessage().matches("hipModuleLaunchKernel\\(kernel ring of module ring\\.emuco, grid"
                    + " \\(1,1,1\\), block \\(2048,1,1\\), 0 dynamic shared bytes, on stream #\\d+\\) failed: .*"),
                    tooBig.getMessage());
            stream.synchronize();
            shmem.barrierAll(); // nothing was launched: the buffer is still zero everywhere
            assertArrayEquals(new int[128], buffer.asInts().toArray());
            shmem.barrierAll();
        }
    }

    private static void closedObjectsRefuseLaunches(Rocshmem shmem) {
        HipModule module = HipModule.loadResource("kernels/probes");
        Kernel echo = module.kernel("echo");
        SymmetricBuffer out = shmem.calloc(8, Long.BYTES);
        SymmetricLongs view = out.asLongs();
        HipStream stream = HipStream.create();
        Object[] args = {view, (byte) 1, (short) 2, 3, 4L, 5f, 6d, (byte) 7};
        out.close();
        assertTrue(assertThrows(RocshmemStateException.class, () -> echo.launch(Dim3.of(1), Dim3.of(1), 0, stream,
                args)).getMessage().startsWith("this view's SymmetricBuffer was closed"));
        stream.close();
        try (SymmetricBuffer live = shmem.calloc(8, Long.BYTES)) {
            args[0] = live.asLongs();
            assertTrue(assertThrows(IllegalStateException.class,
                    () -> echo.launch(Dim3.of(1), Dim3.of(1), 0, stream, args)).getMessage()
                    .matches("this HipStream \\(stream #\\d+\\) was closed"));
            module.close();
            module.close(); // idempotent
            assertEquals("the HipModule of resource kernels/probes.emuco was closed", assertThrows(
                    IllegalStateException.class, () -> echo.launch(Dim3.of(1), Dim3.of(1), 0, HipStream.NULL, args))
                    .getMessage());
            assertThrows(IllegalStateException.class, () -> module.kernel("echo"));
            assertThrows(IllegalStateException.class, echo::attributes);
        }
    }

    private static void aRocshmemKernelNeedsAnInitialisedModule(Rocshmem shmem) {
        try (HipModule module = HipModule.loadResource("kernels/ring");
             SymmetricBuffer buffer = shmem.calloc(64, Integer.BYTES)) {
            Kernel ring = module.kernel("ring");
            assertTrue(ring.usesRocshmem());
            assertEquals("kernel ring of module ring.emuco uses rocSHMEM's device API, but its module was not"
                    + " initialised for rocSHMEM: call shmem.initModule(module) after Rocshmem.init() and before the"
                    + " first launch", assertThrows(IllegalStateException.class,
                    () -> ring.launch(Dim3.of(1), Dim3.of(64), 0, HipStream.NULL, buffer.asInts())).getMessage());
            shmem.barrierAll();
            assertArrayEquals(new int[64], buffer.asInts().toArray());
            shmem.barrierAll();
        }
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> HipModule.loadResource("kernels/nope"));
        assertEquals("no code object kernels/nope for the native variant linux-x86_64-emu: looked for the class-path"
                + " resource kernels/nope.emuco (the CPU emulator's code object). Build it with"
                + " org.rocshmem.api.kernel.KernelCompiler (docs/kernels.md) and package it as a resource; the other"
                + " variant's file would be kernels/nope.hsaco", missing.getMessage());
    }

    private static void loadingFromAFileAndFromBytes() throws Exception {
        byte[] bytes;
        try (InputStream in = KernelLaunchTest.class.getClassLoader().getResourceAsStream("kernels/probes.emuco")) {
            bytes = in.readAllBytes();
        }
        Path file = Files.createTempFile("probes-", ".emuco");
        try {
            Files.write(file, bytes);
            try (HipModule fromFile = HipModule.load(file); HipModule fromBytes = HipModule.load(bytes)) {
                assertEquals(fromFile.kernelNames(), fromBytes.kernelNames());
                assertEquals(OptionalInt.of(4), fromFile.kernel("store_next").parameterCount());
                assertEquals(OptionalInt.of(1), fromBytes.kernel("faulting").parameterCount());
            }
            // a version-1 object (no param lines) still loads, in Java and in the native loader; its messages
            // then name parameters by position and width only
            int elfAt = indexOfElf(bytes);
            String header = new String(bytes, 0, elfAt, java.nio.charset.StandardCharsets.US_ASCII);
            assertTrue(header.startsWith("ROCSHMEM-EMU-CODE-OBJECT 2\n") && header.contains("\nparam 1 out pointer long*\n"),
                    header);
            String v1 = header.replace("ROCSHMEM-EMU-CODE-OBJECT 2\n", "ROCSHMEM-EMU-CODE-OBJECT 1\n")
                    .replaceAll("(?m)^param [^\n]*\n", "");
            byte[] old = java.util.Arrays.copyOf(v1.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                    v1.length() + bytes.length - elfAt);
            System.arraycopy(bytes, elfAt, old, v1.length(), bytes.length - elfAt);
            try (HipModule version1 = HipModule.load(old)) {
                Kernel echo = version1.kernel("echo");
                assertEquals(OptionalInt.of(8), echo.parameterCount());
                assertEquals("kernel echo: parameter 4 is 4 bytes wide, but argument 4 is a long of 8 bytes (pass an"
                        + " int or float)", assertThrows(IllegalArgumentException.class,
                        () -> echo.arguments().set(3, 5L)).getMessage());
            }
            byte[] elf = java.util.Arrays.copyOfRange(bytes, indexOfElf(bytes), bytes.length);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> HipModule.load(elf)).getMessage().endsWith(
                    "is not a CPU emulator code object (.emuco), but the emulator variant linux-x86_64-emu runs; build"
                            + " the kernel with the emulator's compile driver (org.rocshmem.api.kernel.KernelCompiler)"));
        } finally {
            Files.delete(file);
        }
    }

    private static int indexOfElf(byte[] bytes) {
        for (int i = 0; i + 3 < bytes.length; i++) {
            if (bytes[i] == 0x7f && bytes[i + 1] == 'E' && bytes[i + 2] == 'L' && bytes[i + 3] == 'F') {
                return i;
            }
        }
        throw new AssertionError("no ELF part");
    }

    /** store_next(long* const* peers, me, npes, n): plain stores into the next PE's copy via rocshmem_ptr. */
    private static void peerAddressTableStoresDirectly(Rocshmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        try (HipModule module = HipModule.loadResource("kernels/probes");
             SymmetricBuffer buffer = shmem.calloc(100, Long.BYTES);
             HipStream stream = HipStream.create()) {
            SymmetricLongs data = buffer.asLongs();
            long[] peers = data.peerAddresses();
            assertEquals(n, peers.length);
            assertEquals(data.address(), peers[me], "the own entry is the own address");
            for (long p : peers) {
                assertNotEquals(0L, p, "the emulator maps every PE of the node");
            }
            assertArrayEquals(peers, buffer.peerPointerTable(), "the buffer and its view agree");
            try (PeerAddressTable table = data.peerAddressTable()) {
                assertArrayEquals(peers, table.toArray());
                module.kernel("store_next").launch(Dim3.of(1), Dim3.of(64), 0, stream, table, me, n, 100);
                stream.synchronize();
            }
            shmem.barrierAll();
            int prev = (me + n - 1) % n;
            long[] expected = new long[100];
            for (int i = 0; i < 100; i++) {
                expected[i] = prev * 100L + i;
            }
            assertArrayEquals(expected, data.toArray());
            shmem.barrierAll();
        }
    }
}
