package org.rocshmem.presets;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;
import org.bytedeco.javacpp.tools.Info;
import org.bytedeco.javacpp.tools.InfoMap;
import org.bytedeco.javacpp.tools.InfoMapper;

/**
 * The HIP runtime API ({@code hip/hip_runtime_api.h}, AMD platform, host view).
 *
 * <p>Variants: {@code linux-x86_64} links the system's {@code libamdhip64.so.7}, which is never
 * bundled; {@code linux-x86_64-emu} links the project's CPU emulation of HIP
 * ({@code libhip_cpu_emu.so}), which is bundled in the {@code -emu} jar.
 *
 * <p>Not mapped, on purpose:
 * <ul>
 * <li>C++-only conveniences: the {@code template} overloads (typed {@code hipMalloc<T>},
 *     {@code hipLaunchKernelGGL}, occupancy templates) and the {@code extern "C++"} overloads of the
 *     library loaders. Java reaches the same entry points through their C forms.</li>
 * <li>Functions the header declares but {@code libamdhip64} 7.2 does not export (see {@link #UNEXPORTED}).
 *     Binding them would make the JNI library unloadable.</li>
 * <li>{@code hipGetPCH} (only under {@code __HIP_HAS_GET_PCH}, internal) and the per-thread
 *     ({@code _spt}) macro aliases, which are selected only when compiling with
 *     {@code HIP_API_PER_THREAD_DEFAULT_STREAM}.</li>
 * </ul>
 */
@Properties(
    inherit = org.bytedeco.javacpp.presets.javacpp.class,
    target = "org.rocshmem.hip",
    global = "org.rocshmem.global.hip",
    value = {
        @Platform(
            value = "linux-x86_64",
            compiler = {"cpp17", "nodeprecated"},
            define = {"__HIP_PLATFORM_AMD__ 1"},
            include = {
                "hip/hip_version.h",
                "hip/linker_types.h",
                "hip/driver_types.h",
                "hip/texture_types.h",
                "hip/surface_types.h",
                "hip/hip_runtime_api.h",
            },
            // '#': the driver-level runtime always comes from the system, never from our jar.
            // Parsed for their declarations; the C++ side gets them through hip_runtime_api.h,
            // which includes them after the enums they use.
            exclude = {
                "hip/hip_version.h",
                "hip/linker_types.h",
                "hip/driver_types.h",
                "hip/texture_types.h",
                "hip/surface_types.h",
            },
            link = "amdhip64@.7#"),
        @Platform(
            value = "linux-x86_64",
            extension = NativeVariant.EMULATOR_EXTENSION,
            link = "hip_cpu_emu")
    })
@NoException
public class hip implements InfoMapper {
    static { Loader.checkVersion("org.bytedeco", "javacpp"); }

    /** Declared in the 7.2 headers, absent from libamdhip64.so.7 (checked with nm -D). */
    public static final String[] UNEXPORTED = {
        "hip_impl::hip_init",
        "hipExternalMemoryGetMappedMipmappedArray",
    };

    /** Opaque handle typedefs: {@code typedef struct X* X_t} maps to a Java class X. */
    private static final String[][] HANDLES = {
        {"hipCtx_t", "ihipCtx_t"},
        {"hipStream_t", "ihipStream_t"},
        {"hipModule_t", "ihipModule_t"},
        {"hipFunction_t", "ihipModuleSymbol_t"},
        {"hipLinkState_t", "ihipLinkState_t"},
        {"hipLibrary_t", "ihipLibrary_t"},
        {"hipKernel_t", "ihipKernel_t"},
        {"hipMemPool_t", "ihipMemPoolHandle_t"},
        {"hipEvent_t", "ihipEvent_t"},
        {"hipGraph_t", "ihipGraph"},
        {"hipGraphNode_t", "hipGraphNode"},
        {"hipGraphExec_t", "hipGraphExec"},
        {"hipUserObject_t", "hipUserObject"},
        {"hipMemGenericAllocationHandle_t", "ihipMemGenericAllocationHandle"},
        {"hipArray_t", "hipArray"},
        {"hipMipmappedArray_t", "hipMipmappedArray"},
        {"hipArray_const_t", "hipArray"},
        {"hipMipmappedArray_const_t", "hipMipmappedArray"},
        {"hipTextureObject_t", "__hip_texture"},
        {"hipSurfaceObject_t", "__hip_surface"},
    };

    @Override public void map(InfoMap infoMap) {
        // Host-compiler view of the AMD platform; the device compiler's branches are dropped.
        infoMap.put(new Info("defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)").define(true))
               .put(new Info("defined(__clang__) && defined(__HIP__)", "__HIP_HAS_GET_PCH", "USE_PROF_API",
                             "defined(_MSC_VER)", "defined(__cplusplus) && !defined(__HIP_DISABLE_CPP_FUNCTIONS__)",
                             "defined(__cplusplus) && !defined(__HIP_DEVICE_COMPILE__)").define(false))
               .put(new Info("__cplusplus >= 201703L").define(true));

        // Attribute-like macros: parsed as annotations that produce no Java.
        infoMap.put(new Info("__host__", "__device__", "__global__", "__forceinline__", "__noinline__",
                             "HIP_PUBLIC_API", "__HIP_TEXTURE_ATTRIB", "HIP_INTERNAL_EXPORTED_API", "DEPRECATED")
                        .cppTypes().annotations())
               .put(new Info("HIP_DEPRECATED").cppText("#define HIP_DEPRECATED(msg) deprecated").cppTypes())
               .put(new Info("deprecated").annotations("@Deprecated"))
               .put(new Info("__HIP_NODISCARD").cppText("#define __HIP_NODISCARD").cppTypes())
               .put(new Info("__dparm").cppText("#define __dparm(x) = x").cppTypes());

        // "#define hipGetDeviceProperties hipGetDevicePropertiesR0600" and friends select the current
        // ABI: the parser expands them like the compiler does, and Java keeps the public names.
        for (String name : new String[] {"hipGetDeviceProperties", "hipDeviceProp_t", "hipChooseDevice"}) {
            infoMap.put(new Info(name).cppText("#define " + name + " " + name + "R0600"));
        }
        // driver_types.h uses this enum of hip_runtime_api.h, which includes it after the enum.
        infoMap.put(new Info("hipMemoryType").cast().valueTypes("int").pointerTypes("IntPointer", "IntBuffer", "int[]"));

        // Type aliases spelled as macros ("#define hipStreamAttrID hipLaunchAttributeID").
        String[][] typeAliases = {
            {"hipStreamAttrID", "hipLaunchAttributeID"}, {"hipStreamAttrValue", "hipLaunchAttributeValue"},
            {"hipKernelNodeAttrID", "hipLaunchAttributeID"}, {"hipKernelNodeAttrValue", "hipLaunchAttributeValue"},
            {"hipDrvLaunchAttributeID", "hipLaunchAttributeID"}, {"hipDrvLaunchAttributeValue", "hipLaunchAttributeValue"},
            {"hipDrvLaunchAttribute", "hipLaunchAttribute"},
        };
        for (String[] alias : typeAliases) {
            infoMap.put(new Info(alias[0]).cppText("#define " + alias[0] + " " + alias[1]));
        }
        infoMap.put(new Info("hipDeviceProp_tR0600").pointerTypes("hipDeviceProp_t"))
               .put(new Info("hipGetDevicePropertiesR0600").javaNames("hipGetDeviceProperties"))
               .put(new Info("hipChooseDeviceR0600").javaNames("hipChooseDevice"));

        for (String[] h : HANDLES) {
            // Handles to const structs need a cast to pass through the non-const Java peer.
            String valueType = h[0].contains("_const_") ? "@Cast(\"" + h[0] + "\") " + h[1] : h[1];
            infoMap.put(new Info(h[0]).valueTypes(valueType).pointerTypes("@ByPtrPtr " + h[1], "@Cast(\"" + h[0] + "*\") PointerPointer"))
                   .put(new Info("const " + h[0]).valueTypes("@Cast(\"const " + h[0] + "\") " + h[1])
                                                 .pointerTypes("@Cast(\"const " + h[0] + "*\") PointerPointer"));
        }

        // void* handles stay plain Pointers; arrays of them are PointerPointers.
        for (String h : new String[] {"hipExternalMemory_t", "hipExternalSemaphore_t"}) {
            infoMap.put(new Info(h).valueTypes("Pointer").pointerTypes("@Cast(\"" + h + "*\") PointerPointer", "@Cast(\"" + h + "*\") @ByPtrPtr Pointer"))
                   .put(new Info("const " + h).valueTypes("@Cast(\"const " + h + "\") Pointer")
                                              .pointerTypes("@Cast(\"const " + h + "*\") PointerPointer"));
        }

        // Its "const hipGraphNode_t**" out-parameter defeats the overload rotation: spelled out once.
        infoMap.put(new Info("hipStreamGetCaptureInfo_v2").javaText(
                "public static native @Cast(\"hipError_t\") int hipStreamGetCaptureInfo_v2(ihipStream_t stream,\n"
              + "        @Cast(\"hipStreamCaptureStatus*\") IntPointer captureStatus_out, @Cast(\"unsigned long long*\") LongPointer id_out,\n"
              + "        @ByPtrPtr ihipGraph graph_out, @Cast(\"const hipGraphNode_t**\") PointerPointer dependencies_out,\n"
              + "        @Cast(\"size_t*\") SizeTPointer numDependencies_out);\n"
              + "public static native @Cast(\"hipError_t\") int hipStreamGetCaptureInfo_v2(ihipStream_t stream,\n"
              + "        @Cast(\"hipStreamCaptureStatus*\") IntPointer captureStatus_out);\n"));

        // Holds a union with non-trivial members (dim3): no default constructor in C++.
        infoMap.put(new Info("hipGraphNodeParams").purify());

        // Pointer-valued pseudo handles, read from C at class-load time.
        infoMap.put(new Info("hipStreamPerThread", "hipStreamLegacy").translate(false).cppTypes("ihipStream_t*"))
               .put(new Info("HIP_LAUNCH_PARAM_BUFFER_POINTER", "HIP_LAUNCH_PARAM_BUFFER_SIZE", "HIP_LAUNCH_PARAM_END")
                        .translate(false).cppTypes("void*"));

        for (String name : UNEXPORTED) {
            infoMap.put(new Info(name).skip());
        }
    }
}
