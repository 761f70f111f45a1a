package org.rocshmem.api.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Context;
import org.rocshmem.api.hip.DeviceAddress;
import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipException;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.hip.Kernel;
import org.rocshmem.api.hip.KernelArguments;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.Team;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.testsupport.InitializedPe;

/**
 * The typed, reusable argument list ({@code kernel.arguments()}), address-typed pointer parameters, teams and
 * contexts as arguments, and the messages that name a parameter by its 1-based position, its name and C type (from
 * the version-2 code object), on the emulator.
 */
@Tag("emu")
class KernelArgumentsTest {
    private static final Dim3 ONE = Dim3.of(1);

    // One code object per job (see KernelLaunchTest): probes.emuco here, handles.emuco below.

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void typedArgumentsOnTwoPes() {
        Rocshmem shmem = Rocshmem.current();
        try (HipModule module = HipModule.loadResource("kernels/probes");
             SymmetricBuffer buffer = shmem.calloc(8, Long.BYTES);
             HipStream stream = HipStream.createNonBlocking()) {
            Kernel echo = module.kernel("echo");
            SymmetricLongs out = buffer.asLongs();
            KernelArguments args = echo.arguments().set(0, out).set(1, (byte) -5).set(2, (short) -300).set(3, 0)
                    .set(4, 0L).set(5, 1.5f).set(6, -2.25).set(7, (byte) 200);
            for (int launch = 1; launch <= 3; launch++) { // reused: only what changes is set again
                args.set(3, -70000 * launch).set(4, -(1L << 40) - launch);
                echo.launch(ONE, Dim3.of(64), 0, stream, args);
                stream.synchronize();
                assertArrayEquals(new long[] {-5, -300, -70000L * launch, -(1L << 40) - launch, 1500, -2250, 200,
                        launch}, out.toArray());
            }
            // an explicit address is an address: the kernel writes where it points
            try (SymmetricBuffer other = shmem.calloc(8, Long.BYTES)) {
                echo.launch(ONE, ONE, 0, stream, args.set(0, DeviceAddress.of(other.address())));
                stream.synchronize();
                assertEquals(-5L, other.asLongs().get(0));
                assertEquals(4L, other.asLongs().get(7));
                args.set(0, out);
            }
            refusedWhereTheyAreSet(echo, out);
            assertEquals("kernel store_next takes 4 parameters (long* const* peers, int me, int npes, int n), but 1"
                    + " argument was passed", assertThrows(IllegalArgumentException.class,
                    () -> module.kernel("store_next").launch(ONE, ONE, 0, stream, out)).getMessage());
            assertEquals("kernel echo: argument 2 is a String, which a kernel cannot take; pass a Java primitive, an"
                    + " address: a view (SymmetricArray) or SymmetricBuffer, a PeerAddressTable, a DeviceBuffer or"
                    + " DeviceMemory, a JavaCPP Pointer, or DeviceAddress.of(address) for a number that is one"
                    + " (DeviceAddress.NULL for a null pointer), a Team or a Context", assertThrows(
                    IllegalArgumentException.class, () -> echo.launch(ONE, ONE, 0, stream, out, "a", (short) 1, 1, 1L,
                            1f, 1d, (byte) 1)).getMessage());
            // arguments of another kernel, and a launch after the module closed
            KernelArguments faulting = module.kernel("faulting").arguments().set(0, out);
            assertEquals("these KernelArguments belong to kernel faulting of module probes.emuco, not to kernel echo"
                    + " of module probes.emuco", assertThrows(IllegalArgumentException.class,
                    () -> echo.launch(ONE, ONE, 0, stream, faulting)).getMessage());
            // HIP's refusal names the kernel, the module and the stream in words
            HipException tooBig = assertThrows(HipException.class, () -> echo.launch(ONE, Dim3.of(2048), 0, stream,
                    args));
            assertTrue(tooBig.getMessage().matches("hipModuleLaunchKernel\\(kernel echo of module probes\\.emuco, grid"
                    + " \\(1,1,1\\), block \\(2048,1,1\\), 0 dynamic shared bytes, on stream #\\d+ \\(non-blocking\\)\\)"
                    + " failed: hipErrorInvalidConfiguration .*"), tooBig.getMessage());
            assertFalse(tooBig.getMessage().contains("org.rocshmem"), tooBig.getMessage());
            assertEquals("the null stream", HipStream.NULL.toString());
            HipStream closed = HipStream.create();
            closed.close();
            assertTrue(closed.toString().matches("stream #\\d+ \\(closed\\)"), closed.toString());
            assertEquals("module probes.emuco", module.toString());
            stream.synchronize();
            module.close();
            assertEquals("the HipModule of resource kernels/probes.emuco was closed", assertThrows(
                    IllegalStateException.class, () -> echo.launch(ONE, ONE, 0, stream, args)).getMessage());
        }
        shmem.barrierAll();
    }

    private static void refusedWhereTheyAreSet(Kernel echo, SymmetricLongs out) {
        KernelArguments args = echo.arguments();
        // a bare long or int for a pointer: refused, naming the forms that fit (and never a double)
        String forms = "an address: a view (SymmetricArray) or SymmetricBuffer, a PeerAddressTable, a DeviceBuffer or"
                + " DeviceMemory, a JavaCPP Pointer, or DeviceAddress.of(address) for a number that is one"
                + " (DeviceAddress.NULL for a null pointer)";
        assertEquals("kernel echo: parameter 1 (long* out) is a pointer, but argument 1 is a long, which is not an"
                + " address; pass " + forms, assertThrows(IllegalArgumentException.class,
                () -> args.set(0, out.address())).getMessage());
        String intForPointer = assertThrows(IllegalArgumentException.class, () -> args.set(0, 7)).getMessage();
        assertEquals("kernel echo: parameter 1 (long* out) is a pointer, but argument 1 is an int, which is not an"
                + " address; pass " + forms, intForPointer);
        assertFalse(intForPointer.contains("double"), intForPointer);
        // widths, 1-based, with the parameter's C type and name
        assertEquals("kernel echo: parameter 4 (int c) is 4 bytes wide, but argument 4 is a long of 8 bytes (pass an"
                + " int)", assertThrows(IllegalArgumentException.class, () -> args.set(3, 5L)).getMessage());
        assertEquals("kernel echo: parameter 6 (float e) is 4 bytes wide, but argument 6 is a double of 8 bytes (pass"
                + " a float)", assertThrows(IllegalArgumentException.class, () -> args.set(5, 1.0)).getMessage());
        assertEquals("kernel echo: parameter 2 (char a) is 1 bytes wide, but argument 2 is a SymmetricLongs of 8"
                + " bytes (pass a byte)", assertThrows(IllegalArgumentException.class, () -> args.set(1, out))
                .getMessage());
        assertEquals("kernel echo takes 8 parameters; argument index 8 is out of range (indices are 0-based: parameter"
                + " 1 is index 0)", assertThrows(IndexOutOfBoundsException.class, () -> args.set(8, 1)).getMessage());
        assertEquals("null; for a null pointer pass DeviceAddress.NULL", assertThrows(NullPointerException.class,
                () -> args.set(0, (SymmetricLongs) null)).getMessage().replaceFirst("^kernel echo: argument 1 is ",
                ""));
        // a parameter never set is named at the launch
        args.set(0, out);
        assertEquals("kernel echo: parameter 2 (char a) was never set (set(1, ...) on the KernelArguments; indices"
                + " are 0-based)", assertThrows(IllegalStateException.class,
                () -> echo.launch(ONE, ONE, 0, HipStream.NULL, args)).getMessage());
        // the varargs form says the same
        assertEquals("kernel echo: parameter 1 (long* out) is a pointer, but argument 1 is a long, which is not an"
                + " address; pass " + forms, assertThrows(IllegalArgumentException.class, () -> echo.launch(ONE, ONE,
                0, HipStream.NULL, out.address(), (byte) 1, (short) 2, 3, 4L, 5f, 6d, (byte) 7)).getMessage());
        assertSame(echo, args.kernel());
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void teamsAndContextsOnTwoPes() {
        teamsAndContexts();
    }

    @Test
    @MultiPe(value = 3, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void teamsAndContextsOnThreePes() {
        teamsAndContexts();
    }

    /** team_info(long* out, rocshmem_team_t team, rocshmem_ctx_t ctx, int check) */
    private static void teamsAndContexts() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int n = shmem.nPes();
        try (HipModule module = HipModule.loadResource("kernels/handles");
             SymmetricBuffer buffer = shmem.calloc(4, Long.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.initModule(module);
            Kernel teamInfo = module.kernel("team_info");
            SymmetricLongs out = buffer.asLongs();
            Context ctx = shmem.defaultContext();
            teamInfo.launch(ONE, ONE, 0, stream, out, shmem.world(), ctx, 41);
            stream.synchronize();
            assertArrayEquals(new long[] {me, n, 1, 41}, out.toArray());
            // a split team: the odd PEs (a PE outside gets Team.INVALID, for which rocSHMEM answers -1)
            try (Team odd = shmem.world().splitStrided(1, 2, n / 2)) {
                KernelArguments args = teamInfo.arguments().set(0, out).set(1, odd).set(2, ctx).set(3, 42);
                teamInfo.launch(ONE, ONE, 0, stream, args);
                stream.synchronize();
                assertArrayEquals(me % 2 == 1 ? new long[] {me / 2, n / 2, 1, 42} : new long[] {-1, -1, 1, 42},
                        out.toArray());
            }
            assertEquals("kernel team_info: argument 1 is a Team, which passes a rocshmem_team_t; parameter 1 (long*"
                    + " out) takes another pointer", assertThrows(IllegalArgumentException.class,
                    () -> teamInfo.arguments().set(0, shmem.world())).getMessage());
            assertEquals("kernel team_info: argument 2 is a SymmetricLongs; parameter 2 (rocshmem_team_t team) takes"
                    + " a Team", assertThrows(IllegalArgumentException.class, () -> teamInfo.arguments().set(1, out))
                    .getMessage());
            assertEquals("kernel team_info: parameter 2 (rocshmem_team_t team) is a pointer, but argument 2 is a long,"
                    + " which is not an address; pass a Team", assertThrows(IllegalArgumentException.class,
                    () -> teamInfo.arguments().set(1, shmem.world().handle())).getMessage());
            assertEquals("kernel team_info: argument 1 is a Context, which passes a rocshmem_ctx_t; parameter 1 (long*"
                    + " out) is not one", assertThrows(IllegalArgumentException.class,
                    () -> teamInfo.arguments().set(0, ctx)).getMessage());
            assertEquals("kernel team_info: parameter 3 (rocshmem_ctx_t ctx) is 16 bytes wide, but argument 3 is a"
                    + " long of 8 bytes (pass a Context)", assertThrows(IllegalArgumentException.class,
                    () -> teamInfo.arguments().set(2, 5L)).getMessage());
        }
        shmem.barrierAll();
    }
}
