package org.rocshmem.presets;

import org.bytedeco.javacpp.ClassProperties;
import org.bytedeco.javacpp.LoadEnabled;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;
import org.bytedeco.javacpp.tools.Info;
import org.bytedeco.javacpp.tools.InfoMap;
import org.bytedeco.javacpp.tools.InfoMapper;

/**
 * RCCL, AMD's NCCL ({@code rccl/rccl.h}, NCCL 2.27 API), inheriting the {@link hip} presets so that streams
 * are the same Java type ({@code ihipStream_t}) as everywhere else in this module.
 *
 * <p>Variants: {@code linux-x86_64} links the system's {@code librccl.so.1} by soname and never bundles it
 * (about 380 MB); which file provides it is decided at load time by {@link RcclLibraryLocator}
 * ({@code NCCL_LIBRARY}, then the system soname, then {@code $ROCM_PATH/lib}). {@code linux-x86_64-emu}
 * links the project's CPU RCCL ({@code librccl_cpu_emu.so}, bundled), which exports the same 42 functions.
 *
 * <p>Not mapped, on purpose:
 * <ul>
 * <li>The {@code pncclX} twins of every function: profiling aliases that {@code librccl.so.1} 7.2.4 does
 *     not export ({@code nm -D}); binding them would leave unresolved symbols in the JNI library.</li>
 * <li>{@code mscclLoadAlgo}, {@code mscclRunAlgo}, {@code mscclUnloadAlgo} (and their {@code p} twins):
 *     marked deprecated and "removed from the public API" by the header, meant for RCCL's MSCCL scheduler;
 *     the library still exports them, the emulator does not implement MSCCL.</li>
 * <li>{@code NCCL_CONFIG_INITIALIZER} and {@code NCCL_SIM_INFO_INITIALIZER}: brace initializers with no
 *     Java form; {@code org.rocshmem.api.rccl} fills {@code size}, {@code magic} and {@code version} the
 *     same way. {@code NCCL_VERSION(X,Y,Z)} is a function-like macro ({@code NCCL_VERSION_CODE} is bound).</li>
 * <li>{@code rccl/nccl_net.h}: the network-plugin interface, not an application API; it includes
 *     headers ({@code nccl_common.h}, {@code net_device.h}, {@code net/net_v10.h}...) that librccl-dev
 *     does not ship, so it cannot even be compiled. {@code rccl/amd_detail/api_trace.h}: the rocprofiler
 *     dispatch table, internal to tracing tools.</li>
 * </ul>
 */
@Properties(
    inherit = hip.class,
    target = "org.rocshmem.rccl",
    global = "org.rocshmem.global.rccl",
    value = {
        @Platform(
            value = "linux-x86_64",
            compiler = {"cpp17", "nodeprecated", "noundefined"},
            include = "rccl/rccl.h",
            // '#': never bundled; RcclLibraryLocator picks the file before the JNI library loads.
            link = "rccl@.1#"),
        @Platform(
            value = "linux-x86_64",
            extension = NativeVariant.EMULATOR_EXTENSION,
            link = "rccl_cpu_emu")
    })
@NoException
public class rccl implements InfoMapper, LoadEnabled {
    static { Loader.checkVersion("org.bytedeco", "javacpp"); }

    /**
     * Called by {@code Loader.load} before it loads the JNI library (and by the build, which loads nothing):
     * opens the real librccl chosen by {@link RcclLibraryLocator}, so the JNI library binds to it.
     */
    @Override public void init(ClassProperties properties) {
        if (Loader.isLoadLibraries()) {
            RcclLibraryLocator.preloadForCurrentVariant();
        }
    }

    /** Every public function of rccl.h also has a profiling twin with this prefix. */
    public static final String PROFILING_PREFIX = "p";

    /** Declared by rccl.h but not part of the public API (see the class comment). */
    public static final String[] MSCCL_FUNCTIONS = {"mscclLoadAlgo", "mscclRunAlgo", "mscclUnloadAlgo"};

    /** The 42 public functions, as declared by rccl.h 7.2.4 and exported by librccl.so.1. */
    public static final String[] PUBLIC_FUNCTIONS = {
        "ncclAllGather", "ncclAllReduce", "ncclAllReduceWithBias", "ncclAllToAll", "ncclAllToAllv", "ncclBcast",
        "ncclBroadcast", "ncclCommAbort", "ncclCommCount", "ncclCommCuDevice", "ncclCommDeregister",
        "ncclCommDestroy", "ncclCommFinalize", "ncclCommGetAsyncError", "ncclCommInitAll", "ncclCommInitRank",
        "ncclCommInitRankConfig", "ncclCommInitRankScalable", "ncclCommRegister", "ncclCommShrink",
        "ncclCommSplit", "ncclCommUserRank", "ncclCommWindowDeregister", "ncclCommWindowRegister", "ncclGather",
        "ncclGetErrorString", "ncclGetLastError", "ncclGetUniqueId", "ncclGetVersion", "ncclGroupEnd",
        "ncclGroupSimulateEnd", "ncclGroupStart", "ncclMemAlloc", "ncclMemFree", "ncclRecv",
        "ncclRedOpCreatePreMulSum", "ncclRedOpDestroy", "ncclReduce", "ncclReduceScatter", "ncclResetDebugInit",
        "ncclScatter", "ncclSend",
    };

    @Override public void map(InfoMap infoMap) {
        // Opaque handles: typedef struct X* X_t maps to a Java class X, as nccl does in javacpp-presets.
        for (String[] h : new String[][] {{"ncclComm_t", "ncclComm"}, {"ncclWindow_t", "ncclWindow"}}) {
            infoMap.put(new Info(h[0]).valueTypes(h[1]).pointerTypes("@ByPtrPtr " + h[1], "@Cast(\"" + h[0] + "*\") PointerPointer"))
                   .put(new Info("const " + h[0]).valueTypes("@Cast(\"const " + h[0] + "\") " + h[1])
                                                 .pointerTypes("@Cast(\"const " + h[0] + "*\") PointerPointer"));
        }
        // Versioned struct tags: Java keeps the typedef names users write.
        infoMap.put(new Info("ncclConfig_v22700").pointerTypes("ncclConfig_t"))
               .put(new Info("ncclSimInfo_v22200").pointerTypes("ncclSimInfo_t"));

        infoMap.put(new Info("NCCL_CONFIG_INITIALIZER", "NCCL_SIM_INFO_INITIALIZER", "NCCL_VERSION").skip())
               .put(new Info("NCCL_COMM_NULL", "NCCL_CONFIG_UNDEF_PTR").skip())
               // INT_MIN, and 0x7fffffff >> (32 - 8 * sizeof(enum)): the compiler folds them, the parser
               // cannot, so their values are read from C at load time.
               .put(new Info("NCCL_CONFIG_UNDEF_INT").cppTypes("int").translate(false))
               .put(new Info("ncclMaxRedOp").skip());

        for (String name : PUBLIC_FUNCTIONS) {
            infoMap.put(new Info(PROFILING_PREFIX + name).skip());
        }
        for (String name : MSCCL_FUNCTIONS) {
            infoMap.put(new Info(name).skip()).put(new Info(PROFILING_PREFIX + name).skip());
        }
    }
}
