package org.rocshmem.presets;

import java.util.HashSet;
import java.util.Set;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;
import org.bytedeco.javacpp.tools.Info;
import org.bytedeco.javacpp.tools.InfoMap;
import org.bytedeco.javacpp.tools.InfoMapper;

/**
 * The rocSHMEM host API ({@code rocshmem/rocshmem.hpp}), bound exactly as the real library
 * defines it: every host function of the manifest that librocshmem defines, none of the
 * declared-but-undefined ones, no device-only declaration.
 *
 * <p>Variants: {@code linux-x86_64} links rocSHMEM's static library from {@code ROCSHMEM_HOME}
 * (through a HIP-aware linker, see dev/README.md); {@code linux-x86_64-emu} links the project's CPU
 * emulator ({@code librocshmem_cpu_emu.so}) and parses the header twin written from the manifest.
 *
 * <p>Not mapped, on purpose:
 * <ul>
 * <li>The MPI-typed overloads ({@code rocshmem_init(MPI_Comm)}, {@code rocshmem_init_thread(int, int*,
 *     MPI_Comm)}): deprecated upstream, only declared when {@code <mpi.h>} is seen, and an MPI
 *     communicator has no portable Java form. Java programs initialise with a unique id.</li>
 * <li>Device functions, kernels and device variables ({@code ROCSHMEM_CTX_DEFAULT}, the
 *     {@code rocshmem::device} team handles): they exist only in GPU code.</li>
 * <li>TILE and comm_options templates: C++ templates for device code only.</li>
 * </ul>
 */
@Properties(
    inherit = hip.class,
    target = "org.rocshmem.rocshmem",
    global = "org.rocshmem.global.rocshmem",
    value = {
        @Platform(
            value = "linux-x86_64",
            compiler = {"cpp17", "nodeprecated"},
            include = {
                "rocshmem/rocshmem_config.h",
                "rocshmem/rocshmem_common.hpp",
                "rocshmem/rocshmem_RMA.hpp",
                "rocshmem/rocshmem_AMO.hpp",
                "rocshmem/rocshmem_SIG_OP.hpp",
                "rocshmem/rocshmem_COLL.hpp",
                "rocshmem/rocshmem_P2P_SYNC.hpp",
                "rocshmem/rocshmem_RMA_X.hpp",
                "rocshmem/rocshmem.hpp",
                "rocshmem/qp_introspect.hpp",
                "rocshmem/api_trace.h",
            },
            // rocshmem.hpp includes its sub-headers itself (they only compile in its order).
            exclude = {
                "rocshmem/rocshmem_config.h",
                "rocshmem/rocshmem_common.hpp",
                "rocshmem/rocshmem_RMA.hpp",
                "rocshmem/rocshmem_AMO.hpp",
                "rocshmem/rocshmem_SIG_OP.hpp",
                "rocshmem/rocshmem_COLL.hpp",
                "rocshmem/rocshmem_P2P_SYNC.hpp",
                "rocshmem/rocshmem_RMA_X.hpp",
            },
            // Static library with device code: never bundled, linked by a HIP-aware linker.
            link = "rocshmem#"),
        @Platform(
            value = "linux-x86_64",
            extension = NativeVariant.EMULATOR_EXTENSION,
            link = "rocshmem_cpu_emu")
    })
@NoException
public class rocshmem implements InfoMapper {

    @Override public void map(InfoMap infoMap) {
        infoMap.put(new Info("__constant__", "__shared__", "ATTR_NO_INLINE").cppTypes().annotations())
               .put(new Info("__attribute__").cppText("#define __attribute__(x)").cppTypes())
               .put(new Info("defined(MPI_VERSION)", "defined(HAVE_EXTERNAL_MPI)", "__HIP_DEVICE_COMPILE__",
                             "defined(USE_FUNC_CALL)").define(false));

        // rocshmem_config.h is configured per build (version, install prefix, backends): its values
        // are read from the compiled library's header at load time, so the Java source is the same
        // for the twin and for any real installation.
        infoMap.put(new Info("ROCSHMEM_VERSION", "ROCSHMEM_VENDOR_STRING", "ROCSHMEM_GIT_HASH", "ROCSHMEM_INSTALL_PREFIX",
                             "ROCSHMEM_OFFLOAD_TARGETS", "ROCSHMEM_BUILD_TYPE").cppTypes("const char*").translate(false))
               .put(new Info("ROCSHMEM_VENDOR_MAJOR_VERSION", "ROCSHMEM_VENDOR_MINOR_VERSION", "ROCSHMEM_VENDOR_PATCH_VERSION")
                        .cppTypes("int").translate(false));

        // Types. The context is a small struct passed by value; teams are uint64_t* handles.
        infoMap.put(new Info("rocshmem::rocshmem_ctx").pointerTypes("rocshmem_ctx_t"))
               .put(new Info("rocshmem::rocshmem_ctx_t").pointerTypes("rocshmem_ctx_t"))
               .put(new Info("rocshmem::rocshmem_ctx::operator ==", "rocshmem::rocshmem_ctx::operator !=").skip())
               // The 128-byte unique id (std::array<uint8_t,128>) is seen from Java as its bytes.
               .put(new Info("rocshmem::rocshmem_uniqueid_t", "rocshmem_uniqueid_t")
                        .pointerTypes("@Cast(\"rocshmem::rocshmem_uniqueid_t*\") BytePointer")
                        .valueTypes("@ByRef @Cast(\"rocshmem::rocshmem_uniqueid_t*\") BytePointer"))
               .put(new Info("rocshmem::BackendType").enumerate())
               .put(new Info("rocshmem::QpInfoVendor").enumerate());

        // Host handles of the predefined teams, set by init; the device copies are GPU-only.
        infoMap.put(new Info("rocshmem::device::ROCSHMEM_TEAM_WORLD", "rocshmem::device::ROCSHMEM_TEAM_SHARED").skip());

        skipWhatTheLibraryDoesNotDefine(infoMap, RocshmemManifest.load());
    }

    /**
     * Under a host compiler every device declaration reads as a host one, and the headers also
     * declare 497 host functions the library never defines. Binding any of them would leave an
     * unresolved symbol in the JNI library, so only defined host signatures survive.
     */
    static void skipWhatTheLibraryDoesNotDefine(InfoMap infoMap, RocshmemManifest manifest) {
        Set<String> definedNames = manifest.definedHostNames();
        Set<String> definedKeys = new HashSet<>();
        for (RocshmemManifest.Declaration d : manifest.definedHost) {
            definedKeys.add(d.infoKey(namespaceOf(d.name())));
        }
        for (RocshmemManifest.Declaration d : concat(manifest.undefinedHost, manifest.device)) {
            String ns = namespaceOf(d.name());
            if (!definedNames.contains(d.name())) {
                infoMap.put(new Info(d.qualified(ns)).skip());
            } else if (!definedKeys.contains(d.infoKey(ns))) {
                // an overload the library lacks
                infoMap.put(new Info(d.infoKey(ns), d.qualifiedInfoKey(ns)).skip());
            }
        }
        for (String variable : manifest.deviceVariables) {
            infoMap.put(new Info("rocshmem::" + variable).skip());
        }
    }

    /** Everything lives in namespace rocshmem except the extern "C" trace table accessor. */
    private static String namespaceOf(String name) {
        return name.equals("RocshmemGetFunctionTable") ? "" : "rocshmem";
    }

    private static <T> Iterable<T> concat(java.util.List<T> a, java.util.List<T> b) {
        java.util.List<T> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
