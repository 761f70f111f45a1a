package org.rocshmem.api.hip;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text header of the CPU emulator's code object ({@code .emuco}): the parameter lists of its kernels, whether
 * they use rocSHMEM's device API, and its device globals. Read in Java, without a native call, so a launch can be
 * checked before it reaches HIP. A GPU code object ({@code .hsaco}, an ELF file or a clang offload bundle) records
 * none of this: for it {@link #read} returns {@link #NONE} and launches pack arguments at their natural widths.
 *
 * <pre>
 * ROCSHMEM-EMU-CODE-OBJECT 2
 * kernel ring params=2 sizes=8,4 aligns=8,4 uses-rocshmem
 * param 1 inbox pointer int*
 * param 2 me value int
 * global counter size=8
 * end
 * (the ELF shared object)
 * </pre>
 *
 * Version 2 adds the {@code param} lines ({@code param <position> <name|-> <pointer|value> <C type>}, one per
 * parameter, right after its kernel line), which let a refused launch name the parameter; the driver leaves them
 * out for a kernel whose parameters it cannot spell. Version 1 objects have none and stay readable.
 */
final class CodeObjectHeader {
    static final String MAGIC = "ROCSHMEM-EMU-CODE-OBJECT";
    /** The version rocshmem-emu-hipcc writes; every version from 1 up to it is read. */
    static final int VERSION = 2;
    /** A header longer than this is not one (the ELF part follows right after "end"). */
    private static final int MAX_HEADER_BYTES = 1 << 20;

    /**
     * A parameter as a version-2 code object records it.
     *
     * @param name its name in the source, null when unnamed
     * @param type its C type as declared ({@code const long*}, {@code rocshmem_team_t})
     * @param pointer whether it is a pointer once typedefs are resolved
     */
    record Parameter(String name, String type, boolean pointer) {
        /** {@code int* inbox}, or the type alone when unnamed. */
        String declaration() {
            return name == null ? type : type + " " + name;
        }
    }

    /**
     * A kernel as the code object records it; {@code parameters} is null when the code object does not record
     * names and types (version 1, or a kernel the driver could not describe).
     */
    record KernelSignature(String name, int[] sizes, int[] aligns, boolean usesRocshmem, Parameter[] parameters) {
        KernelSignature(String name, int[] sizes, int[] aligns, boolean usesRocshmem) {
            this(name, sizes, aligns, usesRocshmem, null);
        }

        int parameterCount() {
            return sizes.length;
        }

        /** The recorded parameter at 0-based {@code index}, or null. */
        Parameter parameter(int index) {
            return parameters == null ? null : parameters[index];
        }

        @Override
        public String toString() {
            return name + "(" + sizes.length + " parameters, sizes " + Arrays.toString(sizes) + ")";
        }
    }

    /** What a code object without a header (a GPU code object) tells: nothing. */
    static final CodeObjectHeader NONE = new CodeObjectHeader(false, Map.of(), Map.of());

    private final boolean emulator;
    private final Map<String, KernelSignature> kernels;
    private final Map<String, Long> globals;

    private CodeObjectHeader(boolean emulator, Map<String, KernelSignature> kernels, Map<String, Long> globals) {
        this.emulator = emulator;
        this.kernels = kernels;
        this.globals = globals;
    }

    /** True for an emulator code object (it has the header). */
    boolean isEmulatorObject() {
        return emulator;
    }

    /** The recorded kernel, or null (an unknown name, or a code object that records nothing). */
    KernelSignature kernel(String name) {
        return kernels.get(name);
    }

    /** Kernel names in file order. */
    List<String> kernelNames() {
        return List.copyOf(kernels.keySet());
    }

    /** Device globals and their sizes in bytes, in file order. */
    Map<String, Long> globals() {
        return globals;
    }

    /**
     * Reads the header at the start of {@code image}. Returns {@link #NONE} for a file that does not start with the
     * magic line; throws IllegalArgumentException naming {@code source} and the line for a malformed header.
     */
    static CodeObjectHeader read(byte[] image, String source) {
        byte[] magic = MAGIC.getBytes(StandardCharsets.US_ASCII);
        if (image.length < magic.length || !Arrays.equals(image, 0, magic.length, magic, 0, magic.length)) {
            return NONE;
        }
        Map<String, KernelSignature> kernels = new LinkedHashMap<>();
        Map<String, Long> globals = new LinkedHashMap<>();
        List<Parameter> params = new ArrayList<>(); // of the last kernel line
        KernelSignature last = null;
        int version = 0;
        int pos = 0;
        int lineNumber = 0;
        while (true) {
            int end = indexOf(image, (byte) '\n', pos);
            if (end < 0 || end > MAX_HEADER_BYTES) {
                throw malformed(source, lineNumber + 1, "the header has no 'end' line");
            }
            String line = new String(image, pos, end - pos, StandardCharsets.US_ASCII).strip();
            pos = end + 1;
            lineNumber++;
            if (lineNumber == 1) {
                String[] words = line.split(" ");
                version = words.length == 2 && words[1].matches("[0-9]{1,3}") ? Integer.parseInt(words[1]) : -1;
                if (version < 1 || version > VERSION) {
                    throw malformed(source, 1, "'" + line + "': this runtime reads versions 1 to " + VERSION
                            + " of the emulator's code object format; rebuild the kernel with this release's compiler");
                }
                continue;
            }
            if (!line.startsWith("param ") && last != null) {
                kernels.put(last.name(), withParameters(last, params, source, lineNumber - 1));
                last = null;
            }
            if (line.equals("end")) {
                return new CodeObjectHeader(true, Collections.unmodifiableMap(kernels),
                        Collections.unmodifiableMap(globals));
            } else if (line.startsWith("kernel ")) {
                KernelSignature k = kernelLine(line, source, lineNumber);
                if (kernels.put(k.name(), k) != null) {
                    throw malformed(source, lineNumber, "kernel " + k.name() + " is listed twice");
                }
                last = k;
                params.clear();
            } else if (line.startsWith("param ") && version >= 2) {
                if (last == null) {
                    throw malformed(source, lineNumber, "a param line must follow its kernel line");
                }
                params.add(paramLine(line, params.size() + 1, source, lineNumber));
            } else if (line.startsWith("global ")) {
                String[] words = line.split(" ");
                if (words.length != 3 || !words[2].startsWith("size=")) {
                    throw malformed(source, lineNumber, "'" + line + "' is not 'global <name> size=<bytes>'");
                }
                globals.put(words[1], parseNumber(words[2].substring(5), source, lineNumber));
            } else if (!line.isEmpty()) {
                throw malformed(source, lineNumber, "unknown line '" + line + "'");
            }
        }
    }

    private static KernelSignature kernelLine(String line, String source, int lineNumber) {
        String[] words = line.split(" ", -1);
        if (words.length < 5 || words.length > 6 || !words[2].startsWith("params=") || !words[3].startsWith("sizes=")
                || !words[4].startsWith("aligns=") || (words.length == 6 && !words[5].equals("uses-rocshmem"))) {
            throw malformed(source, lineNumber, "'" + line
                    + "' is not 'kernel <name> params=<n> sizes=<s1>,... aligns=<a1>,... [uses-rocshmem]'");
        }
        String name = words[1];
        int count = (int) parseNumber(words[2].substring(7), source, lineNumber);
        int[] sizes = numbers(words[3].substring(6), source, lineNumber);
        int[] aligns = numbers(words[4].substring(7), source, lineNumber);
        if (sizes.length != count || aligns.length != count) {
            throw malformed(source, lineNumber, "kernel " + name + " declares " + count + " parameters but lists "
                    + sizes.length + " sizes and " + aligns.length + " alignments");
        }
        for (int i = 0; i < count; i++) {
            if (sizes[i] <= 0 || aligns[i] <= 0 || Integer.bitCount(aligns[i]) != 1) {
                throw malformed(source, lineNumber, "kernel " + name + " parameter " + (i + 1) + ": size " + sizes[i]
                        + ", alignment " + aligns[i]);
            }
        }
        return new KernelSignature(name, sizes, aligns, words.length == 6);
    }

    /** {@code param <position> <name|-> <pointer|value> <C type>}, the type being the rest of the line. */
    private static Parameter paramLine(String line, int expected, String source, int lineNumber) {
        String[] words = line.split(" ", 5);
        if (words.length != 5 || !(words[3].equals("pointer") || words[3].equals("value")) || words[4].isBlank()) {
            throw malformed(source, lineNumber, "'" + line + "' is not 'param <position> <name|-> <pointer|value>"
                    + " <C type>'");
        }
        if (!words[1].equals(Integer.toString(expected))) {
            throw malformed(source, lineNumber, "parameter " + words[1] + " listed where parameter " + expected
                    + " belongs");
        }
        return new Parameter(words[2].equals("-") ? null : words[2], words[4], words[3].equals("pointer"));
    }

    /** The kernel with its param lines: none (not recorded) or exactly one per parameter. */
    private static KernelSignature withParameters(KernelSignature k, List<Parameter> params, String source,
                                                  int lineNumber) {
        if (params.isEmpty()) {
            return k;
        }
        if (params.size() != k.parameterCount()) {
            throw malformed(source, lineNumber, "kernel " + k.name() + " has " + k.parameterCount() + " parameters"
                    + " but " + params.size() + " param lines");
        }
        return new KernelSignature(k.name(), k.sizes(), k.aligns(), k.usesRocshmem(), params.toArray(Parameter[]::new));
    }

    private static int[] numbers(String list, String source, int lineNumber) {
        if (list.isEmpty()) {
            return new int[0];
        }
        List<Integer> values = new ArrayList<>();
        for (String s : list.split(",", -1)) {
            values.add((int) parseNumber(s, source, lineNumber));
        }
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    private static long parseNumber(String s, String source, int lineNumber) {
        try {
            long value = Long.parseLong(s);
            if (value < 0 || value > Integer.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw malformed(source, lineNumber, "'" + s + "' is not a size");
        }
    }

    private static int indexOf(byte[] bytes, byte value, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static IllegalArgumentException malformed(String source, int line, String problem) {
        return new IllegalArgumentException(source + " is not a valid emulator code object (header line " + line
                + "): " + problem);
    }
}
