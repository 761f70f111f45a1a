package org.rocshmem.api.collectives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongBinaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.Team;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.typed.TypedView;
import org.rocshmem.testsupport.Expect;

/**
 * Every host collective x C type x operation, on the world team and on a split team whose numbering differs from
 * the world's, with exact expected values computed here from every member's data: broadcast (from a team root that
 * is not the same world PE), the all-reductions (host and stream), reduce-scatter blocks, alltoall as a transpose.
 * PEs outside the split get {@link Team#INVALID} and make the same calls, which must leave their memory alone.
 */
@Tag("emu")
class CollectivesTest {
    private static final int N = 6;
    private static final long UNTOUCHED = -7;
    private static final String[] OPS = {"sum", "prod", "min", "max", "and", "or", "xor"};

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 180)
    void everyCollectiveOnTwoPes() {
        Rocshmem shmem = Rocshmem.current();
        run(shmem, shmem.world(), 1);
        Team copyOfWorld = shmem.world().splitStrided(0, 1, 2);
        run(shmem, copyOfWorld, 0);
        Team justPeOne = shmem.world().splitStrided(1, 1, 1); // PE 0 gets INVALID: its calls are no-ops
        run(shmem, justPeOne, 0);
        justPeOne.close();
        copyOfWorld.close();
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 240)
    void everyCollectiveOnFourPes() {
        Rocshmem shmem = Rocshmem.current();
        run(shmem, shmem.world(), 2);
        Team odd = shmem.world().splitStrided(1, 2, 2); // world PEs 1 and 3; team root 1 is world PE 3
        assertEquals(shmem.myPe() % 2 == 1, odd.isMember());
        run(shmem, odd, 1);
        odd.close();
    }

    /** The world ranks of the team's members, in team order, as every PE can compute them. */
    private static List<Integer> members(Rocshmem shmem, Team team, int teamSize) {
        List<Integer> members = new ArrayList<>();
        for (int t = 0; t < teamSize; t++) {
            members.add(team.translatePe(t, shmem.world()));
        }
        return members;
    }

    private static void run(Rocshmem shmem, Team team, int root) {
        // every PE learns the team's size and membership through the world team (non-members too)
        try (SymmetricBuffer shared = shmem.calloc(shmem.nPes(), Integer.BYTES)) {
            SymmetricInts sizes = shared.asInts();
            for (int pe = 0; pe < shmem.nPes(); pe++) {
                sizes.p(pe, shmem.myPe(), team.isMember() ? team.nPes() : 0);
            }
            shmem.barrierAll();
            int teamSize = java.util.Arrays.stream(sizes.toArray()).max().orElseThrow();
            List<Integer> members = team.isMember() ? members(shmem, team, teamSize) : List.of();
            String where = (team == shmem.world() ? "WORLD" : team.toString()) + " on PE " + shmem.myPe();
            int done = 0;
            for (CType type : CType.values()) {
                done += broadcast(shmem, team, members, teamSize, root, type, where);
                for (String op : OPS) {
                    if (type.serves(op + "_reduce")) {
                        done += reduce(shmem, team, members, type, op, false, where);
                        done += reduce(shmem, team, members, type, op, true, where);
                        done += reduceScatter(shmem, team, members, teamSize, type, op, where);
                    }
                }
            }
            // 23 broadcasts; each as reduce, on-stream reduce and reduce-scatter: 4 arithmetic ops for the 12 signed
            // integer and floating types and sum/prod for the 8 unsigned integer types wider than a byte (56), 3
            // bitwise ops for the 16 integer types wider than a byte (48): a type without its own function uses one
            // of its width (and, for min/max, its signedness)
            assertEquals(23 + 3 * (56 + 48), done, where);
            alltoallTranspose(shmem, team, members, teamSize, where);
            shmem.barrierAll();
        }
    }

    /** What member {@code rank} contributes at element {@code i} to operation {@code op}. */
    private static long value(String op, int rank, int i) {
        return switch (op) {
            case "sum" -> rank * 10L + i + 1;
            case "prod" -> (rank + i) % 3 + 1;
            case "min", "max" -> (rank * 7L + i * 3L) % 11 - 5;
            default -> ((rank + 1L) * 0x11 + i) & 0x7F | (1L << (rank % 7));
        };
    }

    private static LongBinaryOperator fold(String op) {
        return switch (op) {
            case "sum" -> Long::sum;
            case "prod" -> (a, b) -> a * b;
            case "min" -> Math::min;
            case "max" -> Math::max;
            case "and" -> (a, b) -> a & b;
            case "or" -> (a, b) -> a | b;
            default -> (a, b) -> a ^ b;
        };
    }

    private static int broadcast(Rocshmem shmem, Team team, List<Integer> members, int teamSize, int root,
                                 CType type, String where) {
        try (SymmetricBuffer a = shmem.calloc(N, Long.BYTES); SymmetricBuffer b = shmem.calloc(N, Long.BYTES)) {
            TypedView source = TypedView.of(a, type).slice(0, N);
            TypedView destination = TypedView.of(b, type).slice(0, N);
            long[] mine = new long[N];
            for (int i = 0; i < N; i++) {
                mine[i] = shmem.myPe() * 16L + i;
            }
            source.copyFrom(mine);
            destination.copyFrom(filled(UNTOUCHED));
            shmem.barrierAll();
            call(team, "broadcast", destination, source, root);
            shmem.barrierAll();
            long[] expected = team.isMember() ? destination.normalize(rootData(members.get(root)))
                    : destination.normalize(filled(UNTOUCHED));
            assertArrayEquals(expected, destination.read(), where + " broadcast " + type + " from team root " + root);
            shmem.barrierAll();
        }
        return 1;
    }

    private static long[] rootData(int worldRank) {
        long[] data = new long[N];
        for (int i = 0; i < N; i++) {
            data[i] = worldRank * 16L + i;
        }
        return data;
    }

    private static int reduce(Rocshmem shmem, Team team, List<Integer> members, CType type, String op,
                              boolean onStream, String where) {
        try (SymmetricBuffer a = shmem.calloc(N, Long.BYTES); SymmetricBuffer b = shmem.calloc(N, Long.BYTES);
             HipStream stream = HipStream.create()) {
            TypedView source = TypedView.of(a, type).slice(0, N);
            TypedView destination = TypedView.of(b, type).slice(0, N);
            long[] mine = new long[N];
            for (int i = 0; i < N; i++) {
                mine[i] = value(op, shmem.myPe(), i);
            }
            source.copyFrom(mine);
            destination.copyFrom(filled(UNTOUCHED));
            shmem.barrierAll();
            String method = op + "Reduce";
            if (onStream) {
                call(team, method, stream, destination, source);
                stream.synchronize();
            } else {
                call(team, method, destination, source);
            }
            shmem.barrierAll();
            long[] expected = filled(UNTOUCHED);
            if (team.isMember()) {
                for (int i = 0; i < N; i++) {
                    final int element = i;
                    expected[i] = members.stream().mapToLong(r -> value(op, r, element)).reduce(fold(op)).orElseThrow();
                }
            }
            assertArrayEquals(destination.normalize(expected), destination.read(),
                    where + " " + method + (onStream ? " on a stream " : " ") + type);
            shmem.barrierAll();
        }
        return 1;
    }

    private static int reduceScatter(Rocshmem shmem, Team team, List<Integer> members, int teamSize, CType type,
                                     String op, String where) {
        int blocks = Math.max(teamSize, 1);
        try (SymmetricBuffer a = shmem.calloc((long) N * blocks, Long.BYTES);
             SymmetricBuffer b = shmem.calloc(N, Long.BYTES)) {
            TypedView source = TypedView.of(a, type).slice(0, (long) N * blocks);
            TypedView destination = TypedView.of(b, type).slice(0, N);
            long[] mine = new long[N * blocks];
            for (int i = 0; i < mine.length; i++) {
                mine[i] = value(op, shmem.myPe(), i);
            }
            source.copyFrom(mine);
            destination.copyFrom(filled(UNTOUCHED));
            shmem.barrierAll();
            call(team, op + "ReduceScatter", destination, source);
            shmem.barrierAll();
            long[] expected = filled(UNTOUCHED);
            if (team.isMember()) {
                int block = team.myPe();
                for (int i = 0; i < N; i++) {
                    final int element = block * N + i;
                    expected[i] = members.stream().mapToLong(r -> value(op, r, element)).reduce(fold(op)).orElseThrow();
                }
            }
            assertArrayEquals(destination.normalize(expected), destination.read(),
                    where + " " + op + "ReduceScatter " + type + ": block " + team.myPe());
            shmem.barrierAll();
        }
        return 1;
    }

    /** alltoallmem on a stream: member t's block j lands in member j's block t. */
    private static void alltoallTranspose(Rocshmem shmem, Team team, List<Integer> members, int teamSize,
                                          String where) {
        int blocks = Math.max(teamSize, 1);
        try (SymmetricBuffer a = shmem.calloc(4L * blocks, Integer.BYTES);
             SymmetricBuffer b = shmem.calloc(4L * blocks, Integer.BYTES); HipStream stream = HipStream.create()) {
            SymmetricInts source = a.asInts();
            SymmetricInts destination = b.asInts();
            int me = team.isMember() ? team.myPe() : -1;
            int[] mine = new int[4 * blocks];
            for (int j = 0; j < blocks; j++) {
                for (int k = 0; k < 4; k++) {
                    mine[4 * j + k] = 1000 * me + 10 * j + k; // block j, from member me
                }
            }
            source.copyFrom(mine);
            destination.copyFrom(new int[4 * blocks]);
            shmem.barrierAll();
            team.alltoallmem(stream, destination, source);
            stream.synchronize();
            shmem.barrierAll();
            int[] got = destination.toArray();
            int[] expected = new int[4 * blocks];
            if (team.isMember()) {
                for (int t = 0; t < blocks; t++) {
                    for (int k = 0; k < 4; k++) {
                        expected[4 * t + k] = 1000 * t + 10 * me + k; // block t came from member t
                    }
                }
            }
            assertArrayEquals(expected, got, where + " alltoall transpose");
            shmem.barrierAll();
        }
    }

    private static long[] filled(long value) {
        long[] values = new long[N];
        java.util.Arrays.fill(values, value);
        return values;
    }

    /** team.method(...) with the views' concrete classes, so each typed overload is the one called. */
    private static void call(Team team, String method, Object... args) {
        Class<?>[] types = new Class<?>[args.length];
        Object[] values = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            Object arg = args[i] instanceof TypedView v ? v.view : args[i];
            values[i] = arg;
            types[i] = arg instanceof Integer ? int.class : arg.getClass();
        }
        Expect.invoke(team, method, types, values);
    }
}
