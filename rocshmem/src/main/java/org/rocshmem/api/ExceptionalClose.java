package org.rocshmem.api;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells a {@code close()} that try-with-resources calls because an exception is leaving the block. Java passes no
 * such information to {@code close()}, but javac compiles the exceptional path of every try-with-resources in one
 * shape: {@code try { resource.close(); } catch (Throwable x) { primary.addSuppressed(x); }}. So the calling
 * method's bytecode shows it: the close call lies in a try range whose handler starts with
 * {@code astore x; aload primary; aload x; invokevirtual Throwable.addSuppressed}. A normal close never does.
 *
 * <p>Why the session needs to know: closing a buffer, a team or the session is collective (rocshmem_free,
 * rocshmem_team_destroy, rocshmem_finalize). When one PE leaves its block with an exception while the others are
 * still in the program, that collective would meet another one of theirs: a GPU would let them pass it with data
 * this PE never produced, the emulator stops the job with a "collective mismatch" that hides the exception. An
 * exceptional close therefore makes no collective call (see {@link Rocshmem#leaveOnException}).
 *
 * <p>Anything that cannot be decided (a caller compiled by another compiler, a class without class file, a close
 * called by hand in a finally block) counts as a normal close: the behaviour before this check existed.
 */
final class ExceptionalClose {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    /** Per call site (class, method, descriptor, bytecode index): the answer, computed once. */
    private static final Map<String, Boolean> SITES = new ConcurrentHashMap<>();

    private ExceptionalClose() {
    }

    /** Whether the nearest caller outside this package calls close() on a try-with-resources' exceptional path. */
    static boolean inProgress() {
        return WALKER.walk(frames -> frames
                .filter(f -> f.getDeclaringClass().getPackage() != ExceptionalClose.class.getPackage())
                .findFirst()
                .map(ExceptionalClose::isExceptionalClose)
                .orElse(false));
    }

    private static boolean isExceptionalClose(StackWalker.StackFrame frame) {
        Class<?> type = frame.getDeclaringClass();
        String key = type.getName() + "." + frame.getMethodName() + frame.getDescriptor() + "@"
                + frame.getByteCodeIndex();
        return SITES.computeIfAbsent(key, k -> {
            String file = type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class";
            try (InputStream in = type.getResourceAsStream(file)) {
                return in != null && new ClassFile(new DataInputStream(in)).closesOnException(frame.getMethodName(),
                        frame.getDescriptor(), frame.getByteCodeIndex());
            } catch (IOException | RuntimeException unreadable) {
                return false;
            }
        });
    }

    /** The few parts of a class file the check reads: constant pool, method code and exception tables. */
    private static final class ClassFile {
        private static final int ASTORE = 0x3a;
        private static final int ASTORE_0 = 0x4b;
        private static final int ALOAD = 0x19;
        private static final int ALOAD_0 = 0x2a;
        private static final int INVOKEVIRTUAL = 0xb6;

        private final DataInputStream in;
        private String[] utf8;
        private int[] refA;
        private int[] refB;

        ClassFile(DataInputStream in) {
            this.in = in;
        }

        boolean closesOnException(String method, String descriptor, int bci) throws IOException {
            if (in.readInt() != 0xCAFEBABE) {
                return false;
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            readConstantPool();
            in.readUnsignedShort(); // access flags
            in.readUnsignedShort(); // this
            in.readUnsignedShort(); // super
            in.skipNBytes(2L * in.readUnsignedShort()); // interfaces
            skipMembers(); // fields
            int methods = in.readUnsignedShort();
            for (int m = 0; m < methods; m++) {
                in.readUnsignedShort();
                boolean wanted = utf8[in.readUnsignedShort()].equals(method) & utf8[in.readUnsignedShort()]
                        .equals(descriptor);
                int attributes = in.readUnsignedShort();
                for (int a = 0; a < attributes; a++) {
                    String name = utf8[in.readUnsignedShort()];
                    int length = in.readInt();
                    if (wanted && name.equals("Code")) {
                        return codeClosesOnException(bci);
                    }
                    in.skipNBytes(length);
                }
            }
            return false;
        }

        private boolean codeClosesOnException(int bci) throws IOException {
            in.readUnsignedShort(); // max stack
            in.readUnsignedShort(); // max locals
            byte[] code = new byte[in.readInt()];
            in.readFully(code);
            int entries = in.readUnsignedShort();
            for (int e = 0; e < entries; e++) {
                int start = in.readUnsignedShort();
                int end = in.readUnsignedShort();
                int handler = in.readUnsignedShort();
                in.readUnsignedShort(); // catch type
                if (start <= bci && bci < end && addsSuppressed(code, handler)) {
                    return true;
                }
            }
            return false;
        }

        /** {@code astore x; aload p; aload x; invokevirtual ...addSuppressed} at {@code pc}. */
        private boolean addsSuppressed(byte[] code, int pc) {
            int[] stored = local(code, pc, ASTORE, ASTORE_0);
            if (stored == null) {
                return false;
            }
            int[] primary = local(code, stored[1], ALOAD, ALOAD_0);
            if (primary == null) {
                return false;
            }
            int[] loaded = local(code, primary[1], ALOAD, ALOAD_0);
            int invoke = loaded == null ? -1 : loaded[1];
            if (loaded == null || loaded[0] != stored[0] || invoke + 2 >= code.length
                    || (code[invoke] & 0xff) != INVOKEVIRTUAL) {
                return false;
            }
            int methodRef = ((code[invoke + 1] & 0xff) << 8) | (code[invoke + 2] & 0xff);
            int nameAndType = refB[methodRef];
            return "addSuppressed".equals(utf8[refA[nameAndType]]);
        }

        /** The local variable of an {@code op x} / {@code op_n} instruction at pc and the next pc; null if another. */
        private static int[] local(byte[] code, int pc, int op, int op0) {
            if (pc >= code.length) {
                return null;
            }
            int b = code[pc] & 0xff;
            if (b == op && pc + 1 < code.length) {
                return new int[] {code[pc + 1] & 0xff, pc + 2};
            }
            return b >= op0 && b < op0 + 4 ? new int[] {b - op0, pc + 1} : null;
        }

        private void readConstantPool() throws IOException {
            int count = in.readUnsignedShort();
            utf8 = new String[count];
            refA = new int[count];
            refB = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 3, 4 -> in.skipNBytes(4);
                    case 5, 6 -> {
                        in.skipNBytes(8);
                        i++; // takes two entries
                    }
                    case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                    case 9, 10, 11, 12, 17, 18 -> {
                        refA[i] = in.readUnsignedShort(); // class / name
                        refB[i] = in.readUnsignedShort(); // name-and-type / descriptor
                    }
                    case 15 -> in.skipNBytes(3);
                    default -> throw new IOException("constant pool tag " + tag);
                }
            }
        }

        private void skipMembers() throws IOException {
            int members = in.readUnsignedShort();
            for (int m = 0; m < members; m++) {
                in.skipNBytes(6);
                int attributes = in.readUnsignedShort();
                for (int a = 0; a < attributes; a++) {
                    in.readUnsignedShort();
                    in.skipNBytes(in.readInt());
                }
            }
        }
    }
}
