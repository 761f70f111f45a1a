package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.NCCL_CONFIG_UNDEF_INT;
import static org.rocshmem.global.rccl.NCCL_MAJOR;
import static org.rocshmem.global.rccl.NCCL_MINOR;
import static org.rocshmem.global.rccl.NCCL_PATCH;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.rccl.ncclConfig_t;

/**
 * Communicator options ({@code ncclConfig_t}), for {@link Communicator#init(int, UniqueId, int, Config)}. Unset
 * fields keep RCCL's defaults, as with {@code NCCL_CONFIG_INITIALIZER}.
 *
 * <pre>{@code Config.builder().commName("gradients").blocking(true).build()}</pre>
 */
public final class Config {
    /** What NCCL_CONFIG_INITIALIZER puts into {@code magic}. */
    static final int MAGIC = 0xcafebeef;

    private final Integer blocking;
    private final Integer cgaClusterSize;
    private final Integer minCtas;
    private final Integer maxCtas;
    private final String netName;
    private final Integer splitShare;
    private final Integer trafficClass;
    private final String commName;
    private final Integer collnetEnable;
    private final Integer ctaPolicy;
    private final Integer shrinkShare;
    private final Integer nvlsCtas;

    private Config(Builder b) {
        blocking = b.blocking;
        cgaClusterSize = b.cgaClusterSize;
        minCtas = b.minCtas;
        maxCtas = b.maxCtas;
        netName = b.netName;
        splitShare = b.splitShare;
        trafficClass = b.trafficClass;
        commName = b.commName;
        collnetEnable = b.collnetEnable;
        ctaPolicy = b.ctaPolicy;
        shrinkShare = b.shrinkShare;
        nvlsCtas = b.nvlsCtas;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The native struct, initialized like NCCL_CONFIG_INITIALIZER; strings live in {@code keepAlive}. */
    ncclConfig_t toNative(java.util.List<Pointer> keepAlive) {
        Rccl.load();
        int undefined = NCCL_CONFIG_UNDEF_INT();
        ncclConfig_t c = new ncclConfig_t();
        keepAlive.add(c);
        c.size(c.sizeof()).magic(MAGIC).version(versionCode());
        c.blocking(orUndefined(blocking, undefined)).cgaClusterSize(orUndefined(cgaClusterSize, undefined))
                .minCTAs(orUndefined(minCtas, undefined)).maxCTAs(orUndefined(maxCtas, undefined))
                .splitShare(orUndefined(splitShare, undefined)).trafficClass(orUndefined(trafficClass, undefined))
                .collnetEnable(orUndefined(collnetEnable, undefined)).CTAPolicy(orUndefined(ctaPolicy, undefined))
                .shrinkShare(orUndefined(shrinkShare, undefined)).nvlsCTAs(orUndefined(nvlsCtas, undefined));
        c.netName(string(netName, keepAlive)).commName(string(commName, keepAlive));
        return c;
    }

    /** NCCL_VERSION(NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH) as the header computes it. */
    static int versionCode() {
        return NCCL_MAJOR <= 2 && NCCL_MINOR <= 8 ? NCCL_MAJOR * 1000 + NCCL_MINOR * 100 + NCCL_PATCH
                : NCCL_MAJOR * 10000 + NCCL_MINOR * 100 + NCCL_PATCH;
    }

    private static int orUndefined(Integer value, int undefined) {
        return value == null ? undefined : value;
    }

    private static BytePointer string(String value, java.util.List<Pointer> keepAlive) {
        if (value == null) {
            return null;
        }
        BytePointer p = new BytePointer(value);
        keepAlive.add(p);
        return p;
    }

    /** Fields of {@code ncclConfig_t}; see RCCL's documentation for their meaning. */
    public static final class Builder {
        private Integer blocking;
        private Integer cgaClusterSize;
        private Integer minCtas;
        private Integer maxCtas;
        private String netName;
        private Integer splitShare;
        private Integer trafficClass;
        private String commName;
        private Integer collnetEnable;
        private Integer ctaPolicy;
        private Integer shrinkShare;
        private Integer nvlsCtas;

        private Builder() {
        }

        /** false: calls may return {@link RcclResult#IN_PROGRESS} (poll {@link Communicator#asyncError()}). */
        public Builder blocking(boolean value) {
            blocking = value ? 1 : 0;
            return this;
        }

        public Builder cgaClusterSize(int value) {
            cgaClusterSize = value;
            return this;
        }

        public Builder minCtas(int value) {
            minCtas = value;
            return this;
        }

        public Builder maxCtas(int value) {
            maxCtas = value;
            return this;
        }

        public Builder netName(String value) {
            netName = value;
            return this;
        }

        public Builder splitShare(boolean value) {
            splitShare = value ? 1 : 0;
            return this;
        }

        public Builder trafficClass(int value) {
            trafficClass = value;
            return this;
        }

        public Builder commName(String value) {
            commName = value;
            return this;
        }

        public Builder collnetEnable(boolean value) {
            collnetEnable = value ? 1 : 0;
            return this;
        }

        public Builder ctaPolicy(int value) {
            ctaPolicy = value;
            return this;
        }

        public Builder shrinkShare(boolean value) {
            shrinkShare = value ? 1 : 0;
            return this;
        }

        public Builder nvlsCtas(int value) {
            nvlsCtas = value;
            return this;
        }

        public Config build() {
            return new Config(this);
        }
    }
}
