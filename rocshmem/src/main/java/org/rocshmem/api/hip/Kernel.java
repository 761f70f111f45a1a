package org.rocshmem.api.hip;

import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_BINARY_VERSION;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_MAX;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_NUM_REGS;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_PTX_VERSION;
import static org.rocshmem.global.hip.HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES;
import static org.rocshmem.global.hip.hipFuncGetAttribute;
import static org.rocshmem.global.hip.hipFuncGetAttributes;
import static org.rocshmem.global.hip.hipErrorNotInitialized;
import static org.rocshmem.global.hip.hipModuleLaunchKernel;
import static org.rocshmem.global.hip.hipSuccess;

import java.util.OptionalInt;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.rocshmem.hip.hipFuncAttributes;
import org.rocshmem.hip.ihipModuleSymbol_t;
import org.rocshmem.hip.ihipStream_t;

/**
 * A kernel of a {@link HipModule} ({@code hipFunction_t}), launched with typed arguments. The sample kernel
 * {@code ring(int* inbox)} (in the test resources, {@code kernels/ring.hip}) puts this PE's number into the next
 * PE's inbox:
 *
 * <pre>{@code
 * try (Rocshmem shmem = Rocshmem.init();
 *      HipModule module = HipModule.loadResource("kernels/ring");
 *      SymmetricBuffer buffer = shmem.calloc(64, Integer.BYTES);
 *      HipStream stream = HipStream.create()) {
 *     shmem.initModule(module);
 *     Kernel ring = module.kernel("ring");
 *     SymmetricInts inbox = buffer.asInts();
 *     ring.launch(Dim3.of(1), Dim3.of(64), 0, stream, inbox);      // varargs: the convenient form
 *     KernelArguments args = ring.arguments().set(0, inbox);       // typed and reusable: 0 B per launch
 *     ring.launch(Dim3.of(1), Dim3.of(64), 0, stream, args);
 *     stream.synchronize();
 *     shmem.barrierAll();
 *     int previous = (shmem.myPe() + shmem.nPes() - 1) % shmem.nPes();
 *     if (inbox.toArray()[63] != previous * 1000 + 63) {           // ring puts pe * 1000 + i into inbox[i]
 *         throw new IllegalStateException(java.util.Arrays.toString(inbox.toArray()));
 *     }
 * }
 * }</pre>
 *
 * Arguments pass as device code receives them ({@link KernelArguments} lists every form): a {@link DeviceRegion} (a
 * symmetric view or buffer, a peer-address table, a registered buffer, a device buffer or allocation), a JavaCPP
 * {@link Pointer} or a {@link DeviceAddress} its address, a {@link KernelHandle} (rocSHMEM's team or context) its
 * handle, and a Java primitive its value at its C width. When the code object records the parameter list (the
 * emulator's does), a wrong count, width or kind (a {@code long} for a pointer) throws IllegalArgumentException
 * naming the kernel and the parameter (1-based, with its name and C type) before anything is launched. A launch
 * allocates no native memory; the varargs form allocates its array (and boxes), the {@link #arguments() typed form}
 * nothing.
 */
public final class Kernel {
    private final HipModule module;
    private final String name;
    private final ihipModuleSymbol_t function;
    /** null for a GPU code object, which records no parameter lists. */
    private final CodeObjectHeader.KernelSignature signature;
    private final KernelArguments arguments;

    Kernel(HipModule module, String name, ihipModuleSymbol_t function, CodeObjectHeader.KernelSignature signature) {
        this.module = module;
        this.name = name;
        this.function = function;
        this.signature = signature;
        this.arguments = new KernelArguments(this, signature);
    }

    /**
     * A new, reusable argument list for this kernel: set every argument ({@code set(index, value)}, 0-based), then
     * {@link #launch(Dim3, Dim3, int, HipStream, KernelArguments) launch} with it as often as needed.
     */
    public KernelArguments arguments() {
        module.requireOpen();
        return new KernelArguments(this, signature);
    }

    public String name() {
        return name;
    }

    public HipModule module() {
        return module;
    }

    /** The number of parameters the code object records, empty when it records none (a GPU code object). */
    public OptionalInt parameterCount() {
        return signature == null ? OptionalInt.empty() : OptionalInt.of(signature.parameterCount());
    }

    /**
     * True when the code object says the kernel calls rocSHMEM's device API, so its module must have gone through
     * rocSHMEM's {@code shmem.initModule(module)} (only an emulator code object says; false for a GPU code object).
     */
    public boolean usesRocshmem() {
        return signature != null && signature.usesRocshmem();
    }

    /**
     * What HIP reports about the kernel ({@code hipFuncGetAttributes}). A runtime whose hipFuncGetAttributes knows
     * only the program's own kernels (ROCm's looks the function up among the registered host stubs) is asked
     * attribute by attribute instead ({@code hipFuncGetAttribute}, the module-function form).
     */
    @CallsNative({"hipFuncGetAttributes", "hipFuncGetAttribute"})
    public KernelAttributes attributes() {
        module.requireOpen();
        try (hipFuncAttributes attributes = new hipFuncAttributes()) {
            int status = hipFuncGetAttributes(attributes, function);
            if (status == hipSuccess) {
                return KernelAttributes.of(attributes);
            }
            KernelAttributes byAttribute = attributesOneByOne();
            if (byAttribute == null) {
                HipException.check(status, "hipFuncGetAttributes(kernel " + name + " of " + module + ")");
            }
            return byAttribute;
        }
    }

    /** The same values from hipFuncGetAttribute, or null when the runtime refuses that too. */
    KernelAttributes attributesOneByOne() {
        module.requireOpen();
        int[] v = new int[HIP_FUNC_ATTRIBUTE_MAX];
        for (int attribute = 0; attribute < HIP_FUNC_ATTRIBUTE_MAX; attribute++) {
            int[] value = {0};
            if (hipFuncGetAttribute(value, attribute, function) != hipSuccess) {
                return null;
            }
            v[attribute] = value[0];
        }
        return new KernelAttributes(v[HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK], v[HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES],
                v[HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES], v[HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES],
                v[HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES], v[HIP_FUNC_ATTRIBUTE_NUM_REGS], v[HIP_FUNC_ATTRIBUTE_BINARY_VERSION],
                v[HIP_FUNC_ATTRIBUTE_PTX_VERSION], v[HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA],
                v[HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT]);
    }

    /**
     * Launches the kernel on {@code stream} ({@code hipModuleLaunchKernel}) with {@code args}, a varargs list for
     * convenience (each launch allocates the array; {@link #launch(Dim3, Dim3, int, HipStream, KernelArguments)}
     * allocates nothing). It runs asynchronously, in the stream's order. {@code sharedBytes} is the dynamic shared
     * memory per block ({@code extern __shared__}).
     *
     * @throws IllegalArgumentException for arguments the kernel does not take (count, width, kind)
     * @throws IllegalStateException if the module, the stream or an argument was closed (RocshmemStateException for
     *     rocSHMEM memory), or if the kernel uses rocSHMEM and the runtime says its module never went through
     *     {@code shmem.initModule(module)}
     * @throws HipException if HIP refuses the launch (the message names the kernel, module, stream and configuration)
     */
    @CallsNative("hipModuleLaunchKernel")
    public void launch(Dim3 grid, Dim3 block, int sharedBytes, HipStream stream, Object... args) {
        checkLaunch(grid, block, sharedBytes, stream);
        ihipStream_t streamHandle = stream.handle(); // a closed stream throws here
        int status;
        synchronized (arguments) {
            arguments.startVarargs(args.length);
            for (int i = 0; i < args.length; i++) {
                arguments.setAny(i, args[i]);
            }
            PointerPointer<Pointer> extra = arguments.pack();
            status = hipModuleLaunchKernel(function, grid.x(), grid.y(), grid.z(), block.x(), block.y(), block.z(),
                    sharedBytes, streamHandle, (PointerPointer<?>) null, extra);
        }
        if (status != hipSuccess) {
            throw launchError(status, grid, block, sharedBytes, stream);
        }
    }

    /**
     * Launches the kernel with a typed argument list made by {@link #arguments()}: the same checks as the varargs
     * form (done when each argument was set), and nothing allocated or formatted unless it throws.
     *
     * @throws IllegalArgumentException if {@code args} belongs to another kernel
     * @throws IllegalStateException if an argument was never set
     */
    @CallsNative("hipModuleLaunchKernel")
    public void launch(Dim3 grid, Dim3 block, int sharedBytes, HipStream stream, KernelArguments args) {
        checkLaunch(grid, block, sharedBytes, stream);
        if (args.kernel() != this) {
            throw new IllegalArgumentException("these KernelArguments belong to " + args.kernel() + ", not to " + this);
        }
        ihipStream_t streamHandle = stream.handle();
        int status = hipModuleLaunchKernel(function, grid.x(), grid.y(), grid.z(), block.x(), block.y(), block.z(),
                sharedBytes, streamHandle, (PointerPointer<?>) null, args.pack());
        if (status != hipSuccess) {
            throw launchError(status, grid, block, sharedBytes, stream);
        }
    }

    private void checkLaunch(Dim3 grid, Dim3 block, int sharedBytes, HipStream stream) {
        module.requireOpen();
        java.util.Objects.requireNonNull(grid, "grid");
        java.util.Objects.requireNonNull(block, "block");
        java.util.Objects.requireNonNull(stream, "stream (HipStream.NULL for the null stream)");
        if (sharedBytes < 0) {
            throw new IllegalArgumentException("kernel " + name + ": negative dynamic shared memory " + sharedBytes);
        }
    }

    private RuntimeException launchError(int status, Dim3 grid, Dim3 block, int sharedBytes, HipStream stream) {
        if (status == hipErrorNotInitialized && usesRocshmem()) {
            return notInitialized(); // rocSHMEM records initModule; the runtime refused the launch on its word
        }
        try {
            HipException.check(status, "hipModuleLaunchKernel(kernel " + name + " of " + module + ", grid " + grid
                    + ", block " + block + ", " + sharedBytes + " dynamic shared bytes, on " + stream + ")");
        } catch (HipException e) {
            return e;
        }
        throw new AssertionError("status " + status + " is an error");
    }

    /** The argument bytes of the last launch, in launch layout (tests check the packing with it). */
    java.nio.ByteBuffer lastPackedArguments() {
        synchronized (arguments) {
            return arguments.packed();
        }
    }

    private IllegalStateException notInitialized() {
        return new IllegalStateException("kernel " + name + " of " + module + " uses rocSHMEM's device API,"
                + " but its module was not initialised for rocSHMEM: call shmem.initModule(module) after Rocshmem.init()"
                + " and before the first launch");
    }

    /** The module was unloaded; the block goes with it. */
    void release() {
        synchronized (arguments) {
            arguments.close();
        }
    }

    @Override
    public String toString() {
        return "kernel " + name + " of " + module;
    }
}
