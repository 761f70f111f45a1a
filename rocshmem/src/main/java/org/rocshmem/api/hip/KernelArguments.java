package org.rocshmem.api.hip;

import static org.rocshmem.global.hip.HIP_LAUNCH_PARAM_BUFFER_POINTER;
import static org.rocshmem.global.hip.HIP_LAUNCH_PARAM_BUFFER_SIZE;
import static org.rocshmem.global.hip.HIP_LAUNCH_PARAM_END;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

/**
 * A reusable, typed argument list of one {@link Kernel}: set each argument once, launch many times, and a launch
 * allocates nothing and formats nothing.
 *
 * <pre>{@code
 * try (Rocshmem shmem = Rocshmem.init();
 *      HipModule module = HipModule.loadResource("kernels/ring");    // ring(int* inbox)
 *      SymmetricBuffer buffer = shmem.calloc(4 * 64, Integer.BYTES);
 *      HipStream stream = HipStream.create()) {
 *     shmem.initModule(module);
 *     Kernel ring = module.kernel("ring");
 *     KernelArguments args = ring.arguments();                      // made once
 *     Dim3 grid = Dim3.of(1), block = Dim3.of(64);
 *     for (int step = 0; step < 4; step++) {
 *         args.set(0, buffer.asInts().slice(64 * step, 64));        // index 0: the first parameter
 *         ring.launch(grid, block, 0, stream, args);                // allocates nothing
 *     }
 *     stream.synchronize();
 *     shmem.barrierAll();
 * }
 * }</pre>
 *
 * Each {@code set} checks the argument against the parameter the code object records (the emulator's records
 * every parameter's width, and its name, C type and whether it is a pointer), so a wrong argument is refused where
 * it is set, with a message that names the parameter by its 1-based position, its name and its C type. An
 * address-typed argument (a view, a buffer, a peer table, a {@link DeviceAddress}, ...) is read when the kernel is
 * launched, so a view closed in between is refused then. What each Java argument becomes:
 *
 * <ul>
 *   <li>a {@link DeviceRegion}: a {@code SymmetricArray} view or {@code SymmetricBuffer} its symmetric address; a
 *   {@code PeerAddressTable}, {@code RegisteredBuffer}, {@link DeviceBuffer} or {@link DeviceMemory} its address;</li>
 *   <li>a JavaCPP {@link Pointer} (at its position) or a {@link DeviceAddress}: the address (8 bytes);</li>
 *   <li>a {@link KernelHandle}: rocSHMEM's {@code Team} its {@code rocshmem_team_t} (8 bytes; {@code Team.INVALID}
 *   passes {@code ROCSHMEM_TEAM_INVALID}), its {@code Context} its {@code rocshmem_ctx_t} value (16 bytes);</li>
 *   <li>a Java primitive: its value at its C width (byte and boolean 1, short and char 2, int and float 4, long and
 *   double 8; unsigned C types take the same bits).</li>
 * </ul>
 *
 * A pointer parameter takes only an address-typed argument: a bare {@code long} there is refused (wrap a number
 * that is an address in {@link DeviceAddress#of}). A GPU code object records no parameters; there the arguments
 * are laid out at their natural widths, as given. One argument list is used by one thread at a time; its native
 * block is freed with it (JavaCPP's deallocator) and it refuses launches once its module is closed.
 */
public final class KernelArguments {
    /** extra[5] (40 bytes) and the size_t it points to, before the arguments. */
    private static final int ARGS_OFFSET = 64;
    private static final int MAX_ALIGN = 16;

    private final Kernel kernel;
    /** null for a GPU code object. */
    private final CodeObjectHeader.KernelSignature signature;
    /** The arguments in use: the recorded parameter count, or one past the highest index set. */
    private int count;
    /** Per argument: the bits of a primitive, 0 while unset. */
    private long[] bits;
    /** Per argument: its width in bytes, 0 while unset. */
    private int[] widths;
    /** Per argument: the address-typed object or handle read at launch, null for a primitive. */
    private Object[] refs;
    /** Per argument with a recorded signature: its offset in the block. */
    private final int[] offsets;

    private BytePointer block;
    private ByteBuffer bytes;
    private PointerPointer<Pointer> extra;

    KernelArguments(Kernel kernel, CodeObjectHeader.KernelSignature signature) {
        this.kernel = kernel;
        this.signature = signature;
        int n = signature == null ? 8 : signature.parameterCount();
        count = signature == null ? 0 : n;
        bits = new long[n];
        widths = new int[n];
        refs = new Object[n];
        int argumentBytes = 0;
        if (signature != null) {
            offsets = new int[n];
            for (int i = 0; i < n; i++) {
                int align = signature.aligns()[i];
                argumentBytes = (argumentBytes + align - 1) & -align;
                offsets[i] = argumentBytes;
                argumentBytes += signature.sizes()[i];
            }
        } else {
            offsets = null;
        }
        allocate(Math.max(argumentBytes, 64));
    }

    private void allocate(int argumentBytes) {
        BytePointer old = block;
        block = new BytePointer(ARGS_OFFSET + argumentBytes + MAX_ALIGN);
        // the arguments start 16-byte aligned whatever malloc gave
        long misalign = (block.address() + ARGS_OFFSET) & (MAX_ALIGN - 1);
        int start = ARGS_OFFSET + (int) (misalign == 0 ? 0 : MAX_ALIGN - misalign);
        bytes = block.asByteBuffer().order(ByteOrder.nativeOrder());
        bytes.putLong(0, HIP_LAUNCH_PARAM_BUFFER_POINTER.address());
        bytes.putLong(8, block.address() + start);
        bytes.putLong(16, HIP_LAUNCH_PARAM_BUFFER_SIZE.address());
        bytes.putLong(24, block.address() + 40);
        bytes.putLong(32, HIP_LAUNCH_PARAM_END.address());
        bytes.putLong(40, 0);
        bytes = bytes.position(start).slice().order(ByteOrder.nativeOrder());
        extra = new PointerPointer<>(block);
        if (old != null) {
            old.close();
        }
    }

    /** The kernel these arguments are for. */
    public Kernel kernel() {
        return kernel;
    }

    // ---------------------------------------------------------------- typed setters (index: 0-based)

    public KernelArguments set(int index, int value) {
        return primitive(index, value, 4, "int");
    }

    public KernelArguments set(int index, long value) {
        return primitive(index, value, 8, "long");
    }

    public KernelArguments set(int index, short value) {
        return primitive(index, value, 2, "short");
    }

    public KernelArguments set(int index, char value) {
        return primitive(index, value, 2, "char");
    }

    public KernelArguments set(int index, byte value) {
        return primitive(index, value, 1, "byte");
    }

    public KernelArguments set(int index, boolean value) {
        return primitive(index, value ? 1 : 0, 1, "boolean");
    }

    public KernelArguments set(int index, float value) {
        return primitive(index, Float.floatToRawIntBits(value), 4, "float");
    }

    public KernelArguments set(int index, double value) {
        return primitive(index, Double.doubleToRawLongBits(value), 8, "double");
    }

    /**
     * A {@link DeviceRegion} passes its address: a symmetric view or buffer its symmetric address (what device code
     * passes to rocSHMEM), a peer-address table the device address of its {@code uint64_t[nPes]}, a registered buffer,
     * {@link DeviceBuffer} or {@link DeviceMemory} its device address.
     */
    public KernelArguments set(int index, DeviceRegion region) {
        return address(index, region);
    }

    public KernelArguments set(int index, DeviceAddress address) {
        return address(index, address);
    }

    /** A JavaCPP pointer passes its address at its position. */
    public KernelArguments set(int index, Pointer pointer) {
        return address(index, pointer);
    }

    /**
     * A library handle that device code receives by value ({@link KernelHandle}: rocSHMEM's {@code Team} passes its
     * {@code rocshmem_team_t}, its {@code Context} its 16-byte {@code rocshmem_ctx_t}), read again at launch.
     */
    public KernelArguments set(int index, KernelHandle handle) {
        if (handle == null) {
            throw new NullPointerException(at(index) + "a null handle");
        }
        check(index, handle, handle.handleBytes());
        store(index, 0, handle.handleBytes(), handle);
        return this;
    }

    /** Any argument the typed setters take (the varargs launch goes through here). */
    KernelArguments setAny(int index, Object arg) {
        if (arg instanceof Integer v) {
            return set(index, (int) v);
        } else if (arg instanceof Long v) {
            return set(index, (long) v);
        } else if (arg instanceof DeviceRegion || arg instanceof DeviceAddress || arg instanceof Pointer) {
            return address(index, arg);
        } else if (arg instanceof Float v) {
            return set(index, (float) v);
        } else if (arg instanceof Double v) {
            return set(index, (double) v);
        } else if (arg instanceof Short v) {
            return set(index, (short) v);
        } else if (arg instanceof Character v) {
            return set(index, (char) v);
        } else if (arg instanceof Byte v) {
            return set(index, (byte) v);
        } else if (arg instanceof Boolean v) {
            return set(index, (boolean) v);
        } else if (arg instanceof KernelHandle v) {
            return set(index, v);
        }
        throw unsupported(index, arg);
    }

    /** Starts a varargs launch of {@code n} arguments: every argument is set again. */
    void startVarargs(int n) {
        if (signature != null) {
            if (n != signature.parameterCount()) {
                throw wrongCount(n);
            }
        } else {
            ensureCapacity(n);
            count = n;
        }
        Arrays.fill(widths, 0, count, 0);
    }

    private KernelArguments primitive(int index, long value, int width, String type) {
        checkPrimitive(index, width, type);
        store(index, value, width, null);
        return this;
    }

    private KernelArguments address(int index, Object target) {
        if (target == null) {
            throw new NullPointerException(at(index) + "null; for a null pointer pass DeviceAddress.NULL");
        }
        check(index, target, 8);
        store(index, 0, 8, target);
        return this;
    }

    private void store(int index, long value, int width, Object ref) {
        bits[index] = value;
        widths[index] = width;
        refs[index] = ref;
    }

    // ---------------------------------------------------------------- checks (only the throwing paths format)

    private void checkIndex(int index) {
        if (index < 0 || (signature != null && index >= signature.parameterCount())) {
            throw new IndexOutOfBoundsException("kernel " + kernel.name() + " takes " + parameters(signature == null
                    ? 0 : signature.parameterCount()) + "; argument index " + index + " is out of range (indices"
                    + " are 0-based: parameter 1 is index 0)");
        }
        if (signature == null) {
            ensureCapacity(index + 1);
            count = Math.max(count, index + 1);
        }
    }

    private void checkPrimitive(int index, int width, String type) {
        checkIndex(index);
        if (signature == null) {
            return;
        }
        CodeObjectHeader.Parameter p = signature.parameter(index);
        if (p != null && p.pointer()) {
            throw notAnAddress(index, p, type);
        }
        if (width != signature.sizes()[index]) {
            throw wrongWidth(index, type, width);
        }
    }

    private void check(int index, Object arg, int width) {
        checkIndex(index);
        if (signature == null) {
            return;
        }
        CodeObjectHeader.Parameter p = signature.parameter(index);
        boolean teamParameter = p != null && p.pointer() && isTeamType(p.type());
        if (arg instanceof KernelHandle h && p != null && !sameType(h.cType(), p.type())) {
            // a pointer-sized handle (a team) names what the parameter is; a by-value one (a context) that it differs
            String why = h.handleBytes() != 8 ? " is not one" : p.pointer() ? " takes another pointer" : " is not a pointer";
            throw new IllegalArgumentException(at(index) + describe(arg) + ", which passes a " + h.cType() + "; "
                    + describeParameter(index) + why);
        }
        if (teamParameter && !(arg instanceof KernelHandle || arg instanceof DeviceAddress)) {
            throw new IllegalArgumentException(at(index) + describe(arg) + "; " + describeParameter(index)
                    + " takes a Team");
        }
        if (width != signature.sizes()[index]) {
            throw wrongWidth(index, arg.getClass().getSimpleName(), width);
        }
    }

    /** True when the recorded C type {@code type} is {@code handleType}, maybe qualified or const. */
    private static boolean sameType(String handleType, String type) {
        return type.equals(handleType) || type.endsWith("::" + handleType) || type.equals("const " + handleType);
    }

    private static boolean isTeamType(String type) {
        return type.equals("rocshmem_team_t") || type.endsWith("::rocshmem_team_t") || type.equals("const rocshmem_team_t");
    }

    private static boolean isContextType(String type) {
        return type.equals("rocshmem_ctx_t") || type.endsWith("::rocshmem_ctx_t") || type.equals("const rocshmem_ctx_t");
    }

    private void ensureCapacity(int n) {
        if (n > bits.length) {
            int size = Math.max(n, 2 * bits.length);
            bits = Arrays.copyOf(bits, size);
            widths = Arrays.copyOf(widths, size);
            refs = Arrays.copyOf(refs, size);
        }
    }

    // ---------------------------------------------------------------- packing (per launch: no allocation)

    /**
     * Writes the arguments into the native block and returns the {@code extra} array to launch with. Reads every
     * address-typed argument now, so a closed view, buffer or handle throws its IllegalStateException; an argument
     * never set
     * throws IllegalStateException naming it.
     */
    PointerPointer<Pointer> pack() {
        if (block.isNull()) {
            throw new IllegalStateException("kernel " + kernel.name() + ": its HipModule was closed");
        }
        int offset = 0;
        for (int i = 0; i < count; i++) {
            int width = widths[i];
            if (width == 0) {
                throw unset(i);
            }
            if (offsets != null) {
                offset = offsets[i];
            } else {
                int align = Math.min(width, 8);
                offset = (offset + align - 1) & -align;
                if (offset + width > bytes.capacity()) {
                    grow(offset + width);
                }
            }
            Object ref = refs[i];
            if (ref == null) {
                switch (width) {
                    case 1 -> bytes.put(offset, (byte) bits[i]);
                    case 2 -> bytes.putShort(offset, (short) bits[i]);
                    case 4 -> bytes.putInt(offset, (int) bits[i]);
                    default -> bytes.putLong(offset, bits[i]);
                }
            } else if (ref instanceof KernelHandle h) {
                bytes.putLong(offset, h.handleWord(0)); // throws once destroyed or after finalize
                if (width == 16) {
                    bytes.putLong(offset + 8, h.handleWord(1));
                }
            } else {
                bytes.putLong(offset, addressOf(ref));
            }
            offset += width;
        }
        block.putLong(40, offset); // the size_t HIP_LAUNCH_PARAM_BUFFER_SIZE points to
        return extra;
    }

    private static long addressOf(Object ref) {
        if (ref instanceof DeviceRegion v) {
            return v.address();
        } else if (ref instanceof DeviceAddress v) {
            return v.address();
        }
        Pointer p = (Pointer) ref;
        return p.address() + p.position() * p.sizeof();
    }

    /** Frees the block; packing after it throws (the kernel's module checks first). */
    void close() {
        block.close();
        bytes = ByteBuffer.allocate(0);
    }

    /** Bytes of the block the last {@link #pack} wrote (for tests and the benchmark). */
    ByteBuffer packed() {
        return bytes.duplicate().order(ByteOrder.nativeOrder()).limit((int) block.getLong(40));
    }

    private void grow(int needed) {
        ByteBuffer previous = bytes;
        allocate(Math.max(needed, 2 * previous.capacity()));
        bytes.put(0, previous, 0, previous.capacity());
    }

    // ---------------------------------------------------------------- messages

    private String at(int index) {
        return "kernel " + kernel.name() + ": argument " + (index + 1) + " is ";
    }

    /** "parameter 2 (int me)", or "parameter 2" when the code object records no declaration. */
    private String describeParameter(int index) {
        CodeObjectHeader.Parameter p = signature == null ? null : signature.parameter(index);
        return "parameter " + (index + 1) + (p == null ? "" : " (" + p.declaration() + ")");
    }

    private IllegalArgumentException wrongCount(int passed) {
        return new IllegalArgumentException("kernel " + kernel.name() + " takes " + parameters(
                signature.parameterCount()) + " (" + declarations() + "), but " + passed + " argument" + (passed == 1
                ? " was" : "s were") + " passed");
    }

    private IllegalArgumentException wrongWidth(int index, String javaType, int width) {
        int size = signature.sizes()[index];
        CodeObjectHeader.Parameter p = signature.parameter(index);
        return new IllegalArgumentException("kernel " + kernel.name() + ": " + describeParameter(index) + " is " + size
                + " bytes wide, but argument " + (index + 1) + " is " + article(javaType) + " of " + width
                + " bytes (pass " + javaTypeFor(size, p) + ")");
    }

    private IllegalArgumentException notAnAddress(int index, CodeObjectHeader.Parameter p, String javaType) {
        return new IllegalArgumentException("kernel " + kernel.name() + ": " + describeParameter(index) + " is a"
                + " pointer, but argument " + (index + 1) + " is " + article(javaType) + ", which is not an address;"
                + " pass " + (isTeamType(p.type()) ? "a Team" : ADDRESS_FORMS));
    }

    private IllegalArgumentException unsupported(int index, Object arg) {
        return new IllegalArgumentException(at(index) + describe(arg) + ", which a kernel cannot take; pass a Java"
                + " primitive, " + ADDRESS_FORMS + ", a Team or a Context"
                + (arg == null ? " (for a null pointer pass DeviceAddress.NULL)" : ""));
    }

    private IllegalStateException unset(int index) {
        return new IllegalStateException("kernel " + kernel.name() + ": " + describeParameter(index) + " was never"
                + " set (set(" + index + ", ...) on the KernelArguments; indices are 0-based)");
    }

    static final String ADDRESS_FORMS = "an address: a view (SymmetricArray) or SymmetricBuffer, a PeerAddressTable,"
            + " a DeviceBuffer or DeviceMemory, a JavaCPP Pointer, or DeviceAddress.of(address) for a number that is"
            + " one (DeviceAddress.NULL for a null pointer)";

    private String declarations() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < signature.parameterCount(); i++) {
            CodeObjectHeader.Parameter p = signature.parameter(i);
            b.append(i == 0 ? "" : ", ").append(p != null ? p.declaration() : signature.sizes()[i] + " bytes");
        }
        return signature.parameterCount() == 0 ? "none" : b.toString();
    }

    private static String parameters(int n) {
        return n + " parameter" + (n == 1 ? "" : "s");
    }

    private static String describe(Object arg) {
        return arg == null ? "null" : article(arg.getClass().getSimpleName());
    }

    private static String article(String name) {
        return ("AEIOUaeiou".indexOf(name.isEmpty() ? 'x' : name.charAt(0)) >= 0 ? "an " : "a ") + name;
    }

    /** What to pass for a value parameter: from its C type when recorded, else from its width. */
    private static String javaTypeFor(int size, CodeObjectHeader.Parameter p) {
        String type = p == null ? "" : p.type();
        if (type.contains("double")) {
            return "a double";
        } else if (type.contains("float")) {
            return "a float";
        } else if (type.contains("bool")) {
            return "a boolean";
        } else if (isContextType(type)) {
            return "a Context";
        }
        return switch (size) {
            case 1 -> p == null ? "a byte or boolean" : "a byte";
            case 2 -> "a short or char";
            case 4 -> p == null ? "an int or float" : "an int";
            case 8 -> p == null ? "a long or double, or " + ADDRESS_FORMS : "a long";
            case 16 -> "a Context (a rocshmem_ctx_t)";
            default -> "a value of " + size + " bytes, which this API cannot pack";
        };
    }

    @Override
    public String toString() {
        return "KernelArguments[kernel " + kernel.name() + ", " + count + " arguments]";
    }
}
