import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

final class PeerViewWriter {
    private PeerViewWriter() {
    }

    /** {@code PeerLongs} etc.: get/set on a peer's copy, plain loads and stores where the memory is host memory. */
    static String write(JavaType java) {
        return TypedApiGenerator.BANNER + """

                package org.rocshmem.api;

                import org.bytedeco.javacpp.JPOINTER;

                /**
                 * Direct load/store access to another PE's copy of a {@link VIEW}
                 * (see {@link PeerArray}); made by {@link VIEW#peer(int)}.
                 */
                public final class PEER extends PeerArray {
                    private final VIEW view;
                    /** The peer's element 0 (a window on the emulator); null on a GPU, where get/set use g/p. */
                    private final JPOINTER memory;

                    PEER(VIEW view, int pe, JPOINTER memory) {
                        super(view, pe);
                        this.view = view;
                        this.memory = memory;
                    }

                    /** Loads element {@code index} of the peer's copy. */
                    public JT get(long index) {
                        check(index);
                        return memory == null ? view.g(pe, index) : memory.get(index);
                    }

                    /** Stores {@code value} into element {@code index} of the peer's copy. */
                    public void set(long index, JT value) {
                        check(index);
                        if (memory == null) {
                            view.p(pe, index, value);
                        } else {
                            memory.put(index, value);
                        }
                    }
                }
                """.replace("JPOINTER", java.pointerClass()).replace("PEER", java.peerClass())
                .replace("VIEW", java.viewClass).replace("JT", java.name);
    }
}
