import java.util.List;

/**
 * Writes {@code ByteTransfers.java}: the untyped {@code putmem}/{@code getmem} family (byte copies of a whole view,
 * blocking, non-blocking and stream-ordered), the generated superclass of {@code SymmetricArray}. Each function of
 * the family comes from one template here, so the default-context and ctx forms of every local side (a view, a
 * JavaCPP pointer, a registration, a direct ByteBuffer) are written once.
 */
final class TransfersWriter {
    /** The local sides of a blocking transfer: parameter type, the address expression, doc. */
    private static final List<String[]> LOCAL_SIDES = List.of(
            new String[] {"SymmetricArray", null, "the whole local {@code %s} view (the same byte size as this view)"},
            new String[] {"Pointer", "Checks.localPointer(\"%2$s %1$s\", %1$s, byteSize())",
                "local device or registered memory: {@link #byteSize()} bytes at {@code %s}"},
            new String[] {"RegisteredBuffer", "%1$s.%3$s(\"%2$s %1$s\", byteSize())",
                "registered local memory ({@code Rocshmem.register}): its first {@link #byteSize()} bytes"},
            new String[] {"java.nio.ByteBuffer",
                "Checks.localPointer(\"%2$s %1$s\", LocalMemory.%4$s(%1$s, \"%2$s %1$s\"), byteSize())",
                "a direct ByteBuffer: {@link #byteSize()} bytes from its position (which does not move; on a GPU"
                        + " register it first, {@code Rocshmem.register(buffer)}, and pass the registration)"});

    private final StringBuilder s = new StringBuilder();

    private TransfersWriter() {
    }

    static String write() {
        return new TransfersWriter().text();
    }

    private String text() {
        s.append(TypedApiGenerator.BANNER).append("\npackage ").append(TypedApiGenerator.PACKAGE).append(";\n\n");
        s.append("import org.bytedeco.javacpp.Pointer;\nimport org.rocshmem.api.hip.CallsNative;\n"
                + "import org.rocshmem.api.hip.HipStream;\n\n");
        s.append("""
                /**
                 * The untyped {@code putmem}/{@code getmem} family of every view, generated: byte copies of the whole view
                 * between PE {@code pe}'s copy (the remote side, first) and a local side, in the view's context. The
                 * generated superclass of {@link SymmetricArray}, whose checks it uses; see there for the argument order.
                 */
                abstract sealed class ByteTransfers permits SymmetricArray {
                    /** The context operations go through; {@code null} for the library's default context. */
                    public abstract Context context();

                    /** Bytes of the view. */
                    public abstract long byteSize();

                    /** The C element type of the view. */
                    public abstract CType type();

                    abstract long requireSameBytes(SymmetricArray other, String name);

                    abstract long remoteBase(int pe);

                    abstract long local(long index);

                """);
        for (boolean put : new boolean[] {true, false}) {
            String fn = put ? "putmem" : "getmem";
            String local = put ? "source" : "destination";
            for (String[] side : LOCAL_SIDES) {
                blocking(fn, put, local, side);
            }
        }
        helpers();
        nonBlocking("putmem_nbi", true, "putmemNbi", "like {@link #putmem(int, SymmetricArray)}; complete it with"
                + " quiet on the context");
        nonBlocking("getmem_nbi", false, "getmemNbi", "like {@link #getmem(int, SymmetricArray)}; the data is there"
                + " after quiet");
        streams();
        return s.append("}\n").toString();
    }

    /** putmem/getmem with one local side: a view inline (remote side checked first), the others through the helper. */
    private void blocking(String fn, boolean put, String local, String[] side) {
        String doc = String.format(side[2], local);
        s.append("    /** rocshmem_").append(fn).append(put ? ": copies " : ": copies PE {@code pe}'s copy of this view into ")
                .append(put ? doc + " into PE {@code pe}'s copy of this view" : doc).append(". */\n");
        s.append("    @CallsNative({\"rocshmem_").append(fn).append("\", \"rocshmem_ctx_").append(fn).append("\"})\n");
        s.append("    public final void ").append(fn).append("(int pe, ").append(side[0]).append(" ").append(local)
                .append(") {\n");
        if (side[1] == null) {
            s.append("        long bytes = requireSameBytes(").append(local).append(", \"").append(local).append("\");\n");
            s.append("        long ").append(put ? "dest" : "src").append(" = remoteBase(pe);\n");
            s.append("        long ").append(put ? "src" : "dest").append(" = ").append(local).append(".localBase();\n");
            call(fn, "bytes");
        } else {
            s.append("        ").append(put ? "putmemFrom" : "getmemInto").append("(pe, ")
                    .append(String.format(side[1], local, fn, put ? "start" : "writableStart", put ? "of" : "writable"))
                    .append(");\n");
        }
        s.append("    }\n\n");
    }

    /** putmemFrom/getmemInto: byteSize() bytes from or to a checked local address (also the MemorySegment forms'). */
    private void helpers() {
        for (boolean put : new boolean[] {true, false}) {
            String fn = put ? "putmem" : "getmem";
            s.append("    /** rocshmem_").append(fn).append(" of {@link #byteSize()} bytes ").append(put ? "from" : "into")
                    .append(" the checked local address {@code ").append(put ? "src" : "dest").append("}. */\n");
            s.append("    final void ").append(put ? "putmemFrom(int pe, long src)" : "getmemInto(int pe, long dest)")
                    .append(" {\n");
            s.append("        long ").append(put ? "dest" : "src").append(" = remoteBase(pe);\n");
            call(fn, "byteSize()");
            s.append("    }\n\n");
        }
    }

    private void nonBlocking(String fn, boolean put, String method, String doc) {
        String local = put ? "source" : "destination";
        s.append("    /** rocshmem_").append(fn).append(": ").append(doc).append(". */\n");
        s.append("    @CallsNative({\"rocshmem_").append(fn).append("\", \"rocshmem_ctx_").append(fn).append("\"})\n");
        s.append("    public final void ").append(method).append("(int pe, SymmetricArray ").append(local).append(") {\n");
        s.append("        long bytes = requireSameBytes(").append(local).append(", \"").append(local).append("\");\n");
        s.append("        long ").append(put ? "dest" : "src").append(" = remoteBase(pe);\n");
        s.append("        long ").append(put ? "src" : "dest").append(" = ").append(local).append(".localBase();\n");
        call(fn, "bytes");
        s.append("    }\n\n");
    }

    /** The call in the view's context (addresses in src and dest). */
    private void call(String fn, String bytes) {
        s.append("        Context context = context();\n");
        s.append("        if (context == null) {\n            AddressCalls.rocshmem_").append(fn)
                .append("(dest, src, ").append(bytes).append(", pe);\n        } else {\n")
                .append("            AddressCalls.rocshmem_ctx_").append(fn).append("(context.address(), dest, src, ")
                .append(bytes).append(", pe);\n        }\n");
    }

    /** The stream-ordered forms (rocSHMEM has no ctx form of them). */
    private void streams() {
        s.append("""
                    /**
                     * rocshmem_putmem_on_stream: enqueues the copy of {@code source} into PE {@code pe}'s copy of this view on
                     * {@code stream}; it runs when the stream reaches it (rocSHMEM has no ctx form of the stream calls).
                     */
                    @CallsNative("rocshmem_putmem_on_stream")
                    public final void putmemOnStream(HipStream stream, int pe, SymmetricArray source) {
                        long bytes = requireSameBytes(source, "source");
                        long dest = remoteBase(pe);
                        long src = source.localBase();
                        AddressCalls.rocshmem_putmem_on_stream(dest, src, bytes, pe, stream.address());
                    }

                    /** rocshmem_getmem_on_stream: enqueues the copy of PE {@code pe}'s copy of this view into {@code destination}. */
                    @CallsNative("rocshmem_getmem_on_stream")
                    public final void getmemOnStream(HipStream stream, int pe, SymmetricArray destination) {
                        long bytes = requireSameBytes(destination, "destination");
                        long src = remoteBase(pe);
                        long dest = destination.localBase();
                        AddressCalls.rocshmem_getmem_on_stream(dest, src, bytes, pe, stream.address());
                    }

                    /**
                     * rocshmem_putmem_signal_on_stream: enqueues the copy of {@code source} into PE {@code pe}'s copy of this view,
                     * followed by an update of element {@code signalIndex} of PE {@code pe}'s {@code signals} ({@code op} with
                     * {@code signal}) once the data has arrived, so the receiver can wait for the signal alone. rocSHMEM defines
                     * put-with-signal on the host only in this stream form (the blocking and nbi forms are device-only).
                     */
                    @CallsNative("rocshmem_putmem_signal_on_stream")
                    public final void putmemSignalOnStream(HipStream stream, int pe, SymmetricArray source, SymmetricLongs signals,
                                                           long signalIndex, long signal, SignalOp op) {
                        long bytes = requireSameBytes(source, "source");
                        long dest = remoteBase(pe);
                        long src = source.localBase();
                        long signalWord = signals.remote(pe, signalIndex);
                        AddressCalls.rocshmem_putmem_signal_on_stream(dest, src, bytes, signalWord, signal, op.code, pe,
                                stream.address());
                    }

                    /**
                     * rocshmem_signal_wait_until_on_stream: enqueues a wait until this PE's element {@code index} of this signal
                     * view ({@code uint64_t}: a view of 8-byte elements) satisfies {@code element cmp value}; work enqueued after
                     * it runs only then.
                     */
                    @CallsNative("rocshmem_signal_wait_until_on_stream")
                    public final void signalWaitUntilOnStream(HipStream stream, long index, Compare cmp, long value) {
                        if (type().bytes() != Long.BYTES) {
                            throw new IllegalArgumentException("signals are 64-bit words: " + this + " is not a view of 8-byte"
                                    + " elements (use asLongs())");
                        }
                        long word = local(index);
                        AddressCalls.rocshmem_signal_wait_until_on_stream(word, cmp.code, value, stream.address());
                    }
                """);
    }
}
