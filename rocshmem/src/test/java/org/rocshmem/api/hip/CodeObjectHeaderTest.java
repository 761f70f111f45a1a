package org.rocshmem.api.hip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The .emuco header as KERNEL-CONTRACT.md fixes it, read without native code. */
class CodeObjectHeaderTest {

    private static byte[] object(String header) {
        byte[] text = header.getBytes(StandardCharsets.US_ASCII);
        byte[] elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, '\n', 0};
        byte[] all = new byte[text.length + elf.length];
        System.arraycopy(text, 0, all, 0, text.length);
        System.arraycopy(elf, 0, all, text.length, elf.length);
        return all;
    }

    @Test
    void readsKernelsGlobalsAndTheRocshmemMark() {
        CodeObjectHeader h = CodeObjectHeader.read(object("ROCSHMEM-EMU-CODE-OBJECT 1\n"
                + "kernel ring params=2 sizes=8,4 aligns=8,4 uses-rocshmem\n"
                + "kernel _Z4idlev params=0 sizes= aligns=\n"
                + "global counter size=8\n"
                + "end\n"), "ring.emuco");
        assertTrue(h.isEmulatorObject());
        assertEquals(List.of("ring", "_Z4idlev"), h.kernelNames());
        CodeObjectHeader.KernelSignature ring = h.kernel("ring");
        assertArrayEquals(new int[] {8, 4}, ring.sizes());
        assertArrayEquals(new int[] {8, 4}, ring.aligns());
        assertTrue(ring.usesRocshmem());
        assertEquals(0, h.kernel("_Z4idlev").parameterCount());
        assertFalse(h.kernel("_Z4idlev").usesRocshmem());
        assertNull(h.kernel("other"));
        assertEquals(Map.of("counter", 8L), h.globals());
    }

    @Test
    void aGpuCodeObjectRecordsNothing() {
        assertSame(CodeObjectHeader.NONE, CodeObjectHeader.read(new byte[] {0x7f, 'E', 'L', 'F', 2, 1}, "x.hsaco"));
        assertSame(CodeObjectHeader.NONE, CodeObjectHeader.read("__CLANG_OFFLOAD_BUNDLE__".getBytes(
                StandardCharsets.US_ASCII), "x.hsaco"));
        assertSame(CodeObjectHeader.NONE, CodeObjectHeader.read(new byte[0], "empty"));
    }

    @Test
    void malformedHeadersNameTheFileAndTheLine() {
        assertEquals("k.emuco is not a valid emulator code object (header line 1): 'ROCSHMEM-EMU-CODE-OBJECT 3': this"
                + " runtime reads versions 1 to 2 of the emulator's code object format; rebuild the kernel with this"
                + " release's compiler", assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(
                object("ROCSHMEM-EMU-CODE-OBJECT 3\nend\n"), "k.emuco")).getMessage());
        assertEquals("k.emuco is not a valid emulator code object (header line 2): kernel ring declares 2 parameters"
                + " but lists 1 sizes and 2 alignments", assertThrows(IllegalArgumentException.class,
                () -> CodeObjectHeader.read(object("ROCSHMEM-EMU-CODE-OBJECT 1\n"
                        + "kernel ring params=2 sizes=8 aligns=8,4\nend\n"), "k.emuco")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(
                "ROCSHMEM-EMU-CODE-OBJECT 1\nkernel a params=0 sizes= aligns=\n".getBytes(StandardCharsets.US_ASCII),
                "k.emuco")).getMessage().contains("header line 3): the header has no 'end' line"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(object(
                "ROCSHMEM-EMU-CODE-OBJECT 1\nkernel a params=1 sizes=4 aligns=3\nend\n"), "k.emuco")).getMessage()
                .contains("kernel a parameter 1: size 4, alignment 3"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(object(
                "ROCSHMEM-EMU-CODE-OBJECT 1\nkernel a params=0 sizes= aligns= fast\nend\n"), "k.emuco"))
                .getMessage().contains("header line 2): 'kernel a params=0 sizes= aligns= fast' is not"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(object(
                "ROCSHMEM-EMU-CODE-OBJECT 1\nsymbol x\nend\n"), "k.emuco")).getMessage()
                .contains("unknown line 'symbol x'"));
    }

    @Test
    void versionTwoRecordsNamesKindsAndCTypes() {
        CodeObjectHeader h = CodeObjectHeader.read(object("ROCSHMEM-EMU-CODE-OBJECT 2\n"
                + "kernel ring params=3 sizes=8,4,8 aligns=8,4,8 uses-rocshmem\n"
                + "param 1 peers pointer long* const*\n"
                + "param 2 - value unsigned int\n"
                + "param 3 team pointer rocshmem_team_t\n"
                + "kernel idle params=0 sizes= aligns=\n"
                + "kernel opaque params=1 sizes=8 aligns=8\n"
                + "end\n"), "ring.emuco");
        CodeObjectHeader.KernelSignature ring = h.kernel("ring");
        assertEquals(new CodeObjectHeader.Parameter("peers", "long* const*", true), ring.parameter(0));
        assertEquals("long* const* peers", ring.parameter(0).declaration());
        assertEquals("unsigned int", ring.parameter(1).declaration(), "unnamed: the type alone");
        assertFalse(ring.parameter(1).pointer());
        assertTrue(ring.parameter(2).pointer(), "a typedef of a pointer");
        assertEquals(0, h.kernel("idle").parameterCount());
        assertNull(h.kernel("opaque").parameter(0), "no param lines: nothing recorded");
        // version 1 objects stay readable (and record no parameters)
        assertNull(CodeObjectHeader.read(object("ROCSHMEM-EMU-CODE-OBJECT 1\nkernel k params=1 sizes=8 aligns=8\n"
                + "end\n"), "old.emuco").kernel("k").parameter(0));
    }

    @Test
    void malformedParamLinesNameTheLine() {
        assertEquals("k.emuco is not a valid emulator code object (header line 3): kernel a has 2 parameters but 1"
                + " param lines", assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(object(
                "ROCSHMEM-EMU-CODE-OBJECT 2\nkernel a params=2 sizes=8,4 aligns=8,4\nparam 1 p pointer int*\n"
                        + "end\n"), "k.emuco")).getMessage());
        assertEquals("k.emuco is not a valid emulator code object (header line 3): parameter 2 listed where"
                + " parameter 1 belongs", assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(
                object("ROCSHMEM-EMU-CODE-OBJECT 2\nkernel a params=1 sizes=8 aligns=8\nparam 2 p pointer int*\n"
                        + "end\n"), "k.emuco")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(object(
                "ROCSHMEM-EMU-CODE-OBJECT 2\nkernel a params=1 sizes=8 aligns=8\nparam 1 p reference int&\nend\n"),
                "k.emuco")).getMessage().contains("(header line 3): 'param 1 p reference int&' is not 'param"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(object(
                "ROCSHMEM-EMU-CODE-OBJECT 2\nparam 1 p pointer int*\nend\n"), "k.emuco")).getMessage()
                .contains("(header line 2): a param line must follow its kernel line"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CodeObjectHeader.read(object(
                "ROCSHMEM-EMU-CODE-OBJECT 1\nkernel a params=1 sizes=8 aligns=8\nparam 1 p pointer int*\nend\n"),
                "k.emuco")).getMessage().contains("unknown line 'param 1 p pointer int*'"), "version 1 has none");
    }
}
