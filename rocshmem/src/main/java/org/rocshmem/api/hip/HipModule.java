package org.rocshmem.api.hip;

import static org.rocshmem.global.hip.hipModuleGetFunction;
import static org.rocshmem.global.hip.hipModuleGetGlobal;
import static org.rocshmem.global.hip.hipModuleLoad;
import static org.rocshmem.global.hip.hipModuleLoadData;
import static org.rocshmem.global.hip.hipModuleUnload;
import static org.rocshmem.global.hip.hipSuccess;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.SizeTPointer;
import org.rocshmem.presets.NativeVariant;
import org.rocshmem.hip.hipDeviceptr_t;
import org.rocshmem.hip.ihipModuleSymbol_t;
import org.rocshmem.hip.ihipModule_t;

/**
 * A loaded HIP code object ({@code hipModule_t}) and the way to its kernels:
 *
 * <pre>{@code
 * try (Rocshmem shmem = Rocshmem.init();
 *      HipModule module = HipModule.loadResource("kernels/ring");   // ring.emuco on -emu, ring.hsaco on a GPU
 *      SymmetricBuffer inbox = shmem.calloc(64, Integer.BYTES)) {
 *     shmem.initModule(module);                                    // its kernels call rocSHMEM
 *     module.kernel("ring").launch(Dim3.of(1), Dim3.of(64), 0, HipStream.NULL, inbox.asInts()); // ring(int* inbox)
 *     HipStream.NULL.synchronize();
 *     shmem.barrierAll();
 * }
 * }</pre>
 *
 * Code objects: a GPU code object ({@code .hsaco}, built with {@code hipcc --genco}) for the real variant, the CPU
 * emulator's ({@code .emuco}, built with the emulator's compile driver) for {@code -emu}. An emulator code object
 * records its kernels' parameter lists and whether they use rocSHMEM, so launches are checked in Java before they
 * reach HIP; a GPU code object records nothing of this. {@link #close()} unloads the module
 * ({@code hipModuleUnload}); synchronize the streams its kernels run on first.
 *
 * <p>A module knows nothing of the libraries its kernels call: {@code shmem.initModule(module)} is rocSHMEM's
 * business, recorded by rocSHMEM ({@code rocshmem_hipmodule_init}); a launch it did not prepare is refused by the
 * runtime, and {@link Kernel#launch} turns that refusal into a message naming the fix.
 */
public final class HipModule implements AutoCloseable {
    static final String EMULATOR_EXTENSION = ".emuco";
    static final String GPU_EXTENSION = ".hsaco";

    private final ihipModule_t handle;
    private final String source;
    private final CodeObjectHeader header;
    /** The bytes hipModuleLoadData read, kept until unload (HIP may refer to the image). */
    private final BytePointer image;
    private final Map<String, Kernel> kernels = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private HipModule(ihipModule_t handle, String source, CodeObjectHeader header, BytePointer image) {
        this.handle = handle;
        this.source = source;
        this.header = header;
        this.image = image;
    }

    // ---------------------------------------------------------------- loading

    /** Loads the code object in {@code file} ({@code hipModuleLoad}). */
    @CallsNative("hipModuleLoad")
    public static HipModule load(Path file) {
        Objects.requireNonNull(file, "file");
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the code object " + file, e);
        }
        CodeObjectHeader header = checkedHeader(bytes, file.toString());
        ihipModule_t handle = new ihipModule_t();
        int status;
        try (BytePointer path = new BytePointer(file.toString())) {
            status = hipModuleLoad(handle, path);
        }
        if (status != hipSuccess) {
            HipException.check(status, "hipModuleLoad(" + file + ")");
        }
        return new HipModule(handle, file.toString(), header, null);
    }

    /** Loads a code object from its bytes, the whole file ({@code hipModuleLoadData}). */
    @CallsNative("hipModuleLoadData")
    public static HipModule load(byte[] codeObject) {
        return loadData(Objects.requireNonNull(codeObject, "codeObject"), "a code object of " + codeObject.length
                + " bytes");
    }

    /**
     * Loads a code object from the class path with the thread's context class loader (or this library's).
     * {@code name} with an extension names the resource exactly; without one ({@code kernels/ring}) it picks the code
     * object of the native variant that runs: {@code kernels/ring.emuco} on the CPU emulator, {@code kernels/ring.hsaco}
     * on a GPU. A missing resource throws an IllegalArgumentException naming the variant and the files looked for.
     */
    @CallsNative("hipModuleLoadData")
    public static HipModule loadResource(String name) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return loadResource(loader != null ? loader : HipModule.class.getClassLoader(), name);
    }

    /** {@link #loadResource(String)} with the given class loader. */
    @CallsNative("hipModuleLoadData")
    public static HipModule loadResource(ClassLoader loader, String name) {
        Objects.requireNonNull(loader, "loader");
        Objects.requireNonNull(name, "name");
        String path = name.startsWith("/") ? name.substring(1) : name;
        NativeVariant loaded = HipLibrary.load();
        boolean emulator = loaded == NativeVariant.EMULATOR;
        String fileName = path.substring(path.lastIndexOf('/') + 1);
        String wanted = fileName.contains(".") ? path
                : path + (emulator ? EMULATOR_EXTENSION : GPU_EXTENSION);
        URL url = loader.getResource(wanted);
        if (url == null) {
            throw new IllegalArgumentException("no code object " + name + " for the native variant "
                    + loaded.platform() + ": looked for the class-path resource " + wanted + " ("
                    + (wanted.endsWith(EMULATOR_EXTENSION) ? "the CPU emulator's code object"
                    : wanted.endsWith(GPU_EXTENSION) ? "the GPU code object" : "as named")
                    + "). Build it with org.rocshmem.api.kernel.KernelCompiler (docs/kernels.md) and package it as a"
                    + " resource" + (fileName.contains(".") ? "" : "; the other variant's file would be " + path
                    + (emulator ? GPU_EXTENSION : EMULATOR_EXTENSION)));
        }
        byte[] bytes;
        try (InputStream in = url.openStream()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the code object " + url, e);
        }
        return loadData(bytes, "resource " + wanted);
    }

    private static HipModule loadData(byte[] bytes, String source) {
        CodeObjectHeader header = checkedHeader(bytes, source);
        BytePointer image = new BytePointer(bytes.length);
        image.put(bytes);
        ihipModule_t handle = new ihipModule_t();
        int status = hipModuleLoadData(handle, image);
        if (status != hipSuccess) {
            image.close();
            HipException.check(status, "hipModuleLoadData(" + source + ")");
        }
        return new HipModule(handle, source, header, image);
    }

    /** The header, and the variant check HIP would answer less clearly (a GPU object on the emulator and back). */
    private static CodeObjectHeader checkedHeader(byte[] bytes, String source) {
        CodeObjectHeader header = CodeObjectHeader.read(bytes, source);
        NativeVariant loaded = HipLibrary.load();
        boolean emulator = loaded == NativeVariant.EMULATOR;
        if (emulator && !header.isEmulatorObject()) {
            throw new IllegalArgumentException(source + " is not a CPU emulator code object (" + EMULATOR_EXTENSION
                    + "), but the emulator variant " + loaded.platform() + " runs; build the kernel with the"
                    + " emulator's compile driver (org.rocshmem.api.kernel.KernelCompiler)");
        }
        if (!emulator && header.isEmulatorObject()) {
            throw new IllegalArgumentException(source + " is a CPU emulator code object, but the GPU variant "
                    + loaded.platform() + " runs; load the GPU code object (" + GPU_EXTENSION + ", hipcc --genco)");
        }
        return header;
    }

    // ---------------------------------------------------------------- kernels and globals

    /**
     * The kernel {@code name} ({@code hipModuleGetFunction}): the {@code extern "C"} name, or the mangled name of a
     * C++ kernel. An unknown name throws IllegalArgumentException listing the kernels the code object has (when it
     * records them) or a HipException.
     */
    @CallsNative("hipModuleGetFunction")
    public Kernel kernel(String name) {
        requireOpen();
        Objects.requireNonNull(name, "name");
        Kernel known = kernels.get(name);
        if (known != null) {
            return known;
        }
        CodeObjectHeader.KernelSignature signature = header.kernel(name);
        if (header.isEmulatorObject() && signature == null) {
            throw new IllegalArgumentException("no kernel " + name + " in " + source + "; it has " + (header
                    .kernelNames().isEmpty() ? "no kernels" : "the kernels " + String.join(", ", header.kernelNames()))
                    + " (C++ kernels without extern \"C\" have mangled names)");
        }
        ihipModuleSymbol_t function = new ihipModuleSymbol_t();
        int status;
        try (BytePointer kernelName = new BytePointer(name)) {
            status = hipModuleGetFunction(function, handle, kernelName);
        }
        if (status != hipSuccess) {
            HipException.check(status, "hipModuleGetFunction(" + name + " in " + source + ")");
        }
        return kernels.computeIfAbsent(name, n -> new Kernel(this, n, function, signature));
    }

    /** Kernel names the code object records (the emulator's); empty for a GPU code object. */
    public List<String> kernelNames() {
        return header.kernelNames();
    }

    /** True for the CPU emulator's code object, which records parameter lists. */
    public boolean isEmulatorObject() {
        return header.isEmulatorObject();
    }

    /** The device address of the global variable {@code name} ({@code hipModuleGetGlobal}). */
    @CallsNative("hipModuleGetGlobal")
    public long globalAddress(String name) {
        requireOpen();
        Objects.requireNonNull(name, "name");
        hipDeviceptr_t address = new hipDeviceptr_t();
        try (SizeTPointer bytes = new SizeTPointer(1)) {
            int status = hipModuleGetGlobal(address, bytes, handle, name);
            if (status != hipSuccess) {
                HipException.check(status, "hipModuleGetGlobal(" + name + " in " + source + ")");
            }
        }
        return address.address();
    }

    /** The native handle, for raw bindings. */
    public ihipModule_t handle() {
        requireOpen();
        return handle;
    }

    /** Where the code object came from (file, resource or bytes), for messages. */
    public String source() {
        return source;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Unloads the module ({@code hipModuleUnload}); its kernels refuse launches from now on. Idempotent. */
    @CallsNative("hipModuleUnload")
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        int status = hipModuleUnload(handle);
        if (image != null) {
            image.close();
        }
        for (Kernel kernel : kernels.values()) {
            kernel.release();
        }
        HipException.check(status, "hipModuleUnload(" + source + ")");
    }

    void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the HipModule of " + source + " was closed");
        }
    }

    /** In words, for messages: "module ring.emuco" (the file name of a file or resource), or the bytes it was loaded from. */
    @Override
    public String toString() {
        String file = source.startsWith("a code object of ") ? "loaded from " + source
                : source.substring(Math.max(source.lastIndexOf('/'), source.lastIndexOf(' ')) + 1);
        return "module " + file + (closed ? " (closed)" : "");
    }
}
