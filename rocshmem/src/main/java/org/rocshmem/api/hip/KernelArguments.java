package org.rocshmem.api.hip;

import static org.rocshmem.global.hip.HIP_LAUNCH_PARAM_BUFFER_POINTER;
import static org.rocshmem.global.hip.HIP_LAUNCH_PARAM_BUFFER_SIZE;
import static org.rocshmem.global.hip.HIP_LAUNCH_PARAM_END;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

/**
 * Packs a launch's Java arguments into one native block that {@code hipModuleLaunchKernel} reads through
 * {@code extra} ({@code HIP_LAUNCH_PARAM_BUFFER_POINTER, args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
 * HIP_LAUNCH_PARAM_END}): each argument at its C width and natural alignment (or the alignment the code object
 * records). The block belongs to one kernel and is reused by every launch of it (HIP copies the arguments when
 * the launch is enqueued), so a launch allocates no native memory unless its arguments outgrow the block; the
 * caller serializes launches on it.
 *
 * <p>What an argument becomes: a {@link DeviceRegion} (a symmetric view or buffer: its symmetric address, what
 * device code passes to rocSHMEM; a peer-address table, registered buffer, {@link DeviceBuffer} or
 * {@link DeviceMemory}) or JavaCPP {@link Pointer} its device address (8 bytes each); a Java primitive its value at
 * its C width: byte 1,
 * short 2, char 2 (unsigned), int 4, long 8, float 4, double 8, boolean 1.
 */
final class KernelArguments {
    /** extra[5] (40 bytes) and the size_t it points to, before the arguments. */
    private static final int ARGS_OFFSET = 64;
    private static final int MAX_ALIGN = 16;

    private BytePointer block;
    private ByteBuffer bytes;
    private PointerPointer<Pointer> extra;

    KernelArguments(int argumentBytes) {
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

    /**
     * Packs {@code args} for {@code kernel} and returns the {@code extra} array to launch with. With a recorded
     * {@code signature} the count and every width are checked first (IllegalArgumentException naming the kernel
     * and the parameter); closed regions throw their IllegalStateException. Nothing is allocated or formatted
     * unless it throws (or the block must grow).
     */
    PointerPointer<Pointer> pack(String kernel, CodeObjectHeader.KernelSignature signature, Object[] args) {
        if (block.isNull()) {
            throw new IllegalStateException("kernel " + kernel + ": its HipModule was closed");
        }
        if (signature != null && args.length != signature.parameterCount()) {
            throw wrongCount(kernel, signature, args.length);
        }
        int offset = 0;
        for (int i = 0; i < args.length; i++) {
            Object arg = args[i];
            int width = width(arg);
            if (width < 0) {
                throw unsupported(kernel, i, arg);
            }
            int align = width;
            if (signature != null) {
                if (width != signature.sizes()[i]) {
                    throw wrongWidth(kernel, signature, i, arg, width);
                }
                align = signature.aligns()[i];
            }
            offset = (offset + align - 1) & -align;
            if (offset + width > bytes.capacity()) {
                grow(offset + width);
            }
            write(offset, arg);
            offset += width;
        }
        block.putLong(40, offset); // the size_t HIP_LAUNCH_PARAM_BUFFER_SIZE points to
        return extra;
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

    /** The C width of an argument, -1 for a type a kernel cannot take. */
    static int width(Object arg) {
        if (arg instanceof Integer || arg instanceof Float) {
            return 4;
        } else if (arg instanceof Long || arg instanceof Double || arg instanceof DeviceRegion
                || arg instanceof Pointer) {
            return 8;
        } else if (arg instanceof Short || arg instanceof Character) {
            return 2;
        } else if (arg instanceof Byte || arg instanceof Boolean) {
            return 1;
        }
        return -1;
    }

    private void write(int offset, Object arg) {
        if (arg instanceof Integer v) {
            bytes.putInt(offset, v);
        } else if (arg instanceof Long v) {
            bytes.putLong(offset, v);
        } else if (arg instanceof DeviceRegion v) {
            bytes.putLong(offset, v.address());
        } else if (arg instanceof Float v) {
            bytes.putFloat(offset, v);
        } else if (arg instanceof Double v) {
            bytes.putDouble(offset, v);
        } else if (arg instanceof Pointer v) {
            bytes.putLong(offset, v.address() + v.position() * v.sizeof());
        } else if (arg instanceof Short v) {
            bytes.putShort(offset, v);
        } else if (arg instanceof Character v) {
            bytes.putChar(offset, v);
        } else if (arg instanceof Byte v) {
            bytes.put(offset, v);
        } else if (arg instanceof Boolean v) {
            bytes.put(offset, (byte) (v ? 1 : 0));
        }
    }

    private static IllegalArgumentException wrongCount(String kernel, CodeObjectHeader.KernelSignature s, int passed) {
        return new IllegalArgumentException("kernel " + kernel + " takes " + s.parameterCount() + " parameter"
                + (s.parameterCount() == 1 ? "" : "s") + " (" + widths(s) + "), but " + passed + " argument"
                + (passed == 1 ? " was" : "s were") + " passed");
    }

    private static IllegalArgumentException wrongWidth(String kernel, CodeObjectHeader.KernelSignature s, int i,
                                                       Object arg, int width) {
        return new IllegalArgumentException("kernel " + kernel + ": parameter " + i + " is " + s.sizes()[i]
                + " bytes wide, but argument " + i + " is " + describe(arg) + " of " + width + " bytes (pass "
                + javaTypeFor(s.sizes()[i]) + ")");
    }

    private static IllegalArgumentException unsupported(String kernel, int i, Object arg) {
        return new IllegalArgumentException("kernel " + kernel + ": argument " + i + " is " + describe(arg)
                + ", which a kernel cannot take; pass a Java primitive, a DeviceRegion (a symmetric view or buffer:"
                + " its symmetric address; a PeerAddressTable, RegisteredBuffer, DeviceBuffer or DeviceMemory: its"
                + " address) or a Pointer"
                + (arg == null ? " (for a null pointer pass 0L)" : ""));
    }

    private static String describe(Object arg) {
        return arg == null ? "null" : "a " + arg.getClass().getSimpleName();
    }

    private static String widths(CodeObjectHeader.KernelSignature s) {
        StringBuilder b = new StringBuilder();
        for (int size : s.sizes()) {
            b.append(b.length() == 0 ? "" : ", ").append(size);
        }
        return s.parameterCount() == 0 ? "none" : "bytes " + b;
    }

    private static String javaTypeFor(int size) {
        return switch (size) {
            case 1 -> "a byte or boolean";
            case 2 -> "a short or char";
            case 4 -> "an int or float";
            case 8 -> "a long, double or an address";
            default -> "a value of " + size + " bytes, which this API cannot pack";
        };
    }
}
