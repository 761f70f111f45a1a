package org.rocshmem.api.kernel;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.bytedeco.javacpp.Loader;

/**
 * Compiles a project's HIP kernel sources into code objects that {@link org.rocshmem.api.hip.HipModule#loadResource}
 * finds: for {@code <sources>/kernels/ring.hip}, {@code <output>/kernels/ring.emuco} (the CPU emulator's, always)
 * and {@code <output>/kernels/ring.hsaco} (the GPU's, when ROCm's hipcc is there).
 *
 * <pre>
 * java -cp &lt;class path with rocshmem-platform-emu&gt; org.rocshmem.api.kernel.KernelCompiler \
 *      [--gpu auto|on|off] [--offload-arch gfx90a,gfx942] [-I dir]... [--emu-root dir] &lt;sources&gt; &lt;output&gt;
 * </pre>
 *
 * The emulator's compile driver ({@code rocshmem-emu-hipcc}) and its headers ship in the
 * {@code linux-x86_64-emu} jar and are extracted with JavaCPP's {@link Loader}; it needs python3 and g++ (or
 * {@code $CXX}). The GPU code object is built with {@code hipcc --genco -fgpu-rdc --offload-arch=...} from
 * {@code $ROCM_PATH/bin} or the {@code PATH}, against rocSHMEM in {@code $ROCSHMEM_HOME} (default {@code
 * $ROCM_PATH}). {@code --gpu auto} (the default) skips it with one line when hipcc is missing, {@code --gpu on}
 * fails instead. Outputs newer than their source are kept. Each problem is reported in one line, exit status 1.
 * Maven runs it with exec-maven-plugin at generate-resources (see docs/kernels.md and samples/pom.xml).
 */
public final class KernelCompiler {
    static final String DRIVER = "rocshmem-emu-hipcc";
    /** rocSHMEM's GPU targets, from rocshmem.offload.targets in rocshmem/pom.xml (the one list). */
    static final List<String> DEFAULT_ARCHS = defaultArchs();

    /** A build problem, reported in one line. */
    public static final class KernelBuildException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        KernelBuildException(String message) {
            super(message);
        }
    }

    enum Gpu { AUTO, ON, OFF }

    private final Path sources;
    private final Path output;
    private final Gpu gpu;
    private final List<String> archs;
    private final List<String> includes;
    private final Path emuRoot;
    private final Map<String, String> env;

    KernelCompiler(Path sources, Path output, Gpu gpu, List<String> archs, List<String> includes, Path emuRoot,
                   Map<String, String> env) {
        this.sources = sources;
        this.output = output;
        this.gpu = gpu;
        this.archs = archs;
        this.includes = includes;
        this.emuRoot = emuRoot;
        this.env = env;
    }

    public static void main(String[] args) {
        try {
            List<Path> written = fromArguments(args, System.getenv()).run();
            System.out.println("KernelCompiler: " + written.size() + " code object(s) up to date");
        } catch (KernelBuildException e) {
            System.err.println("KernelCompiler: " + e.getMessage());
            System.exit(1);
        }
    }

    static KernelCompiler fromArguments(String[] args, Map<String, String> env) {
        Gpu gpu = Gpu.AUTO;
        List<String> archs = DEFAULT_ARCHS;
        List<String> includes = new ArrayList<>();
        Path emuRoot = null;
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--gpu" -> gpu = switch (value(args, ++i, a)) {
                    case "auto" -> Gpu.AUTO;
                    case "on" -> Gpu.ON;
                    case "off" -> Gpu.OFF;
                    default -> throw new KernelBuildException("--gpu takes auto, on or off, not " + args[i]);
                };
                case "--offload-arch" -> archs = List.of(value(args, ++i, a).split(","));
                case "-I" -> includes.add(value(args, ++i, a));
                case "--emu-root" -> emuRoot = Path.of(value(args, ++i, a));
                default -> {
                    if (a.startsWith("-")) {
                        throw new KernelBuildException("unknown option " + a + " (usage: [--gpu auto|on|off]"
                                + " [--offload-arch list] [-I dir]... [--emu-root dir] <sources> <output>)");
                    }
                    positional.add(a);
                }
            }
        }
        if (positional.size() != 2) {
            throw new KernelBuildException("expected <sources> <output>, got " + positional);
        }
        return new KernelCompiler(Path.of(positional.get(0)), Path.of(positional.get(1)), gpu, archs, includes,
                emuRoot, env);
    }

    private static List<String> defaultArchs() {
        Properties targets = new Properties();
        try (InputStream in = KernelCompiler.class.getResourceAsStream("offload-targets.properties")) {
            if (in == null) {
                throw new IllegalStateException("offload-targets.properties is missing next to KernelCompiler");
            }
            targets.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read offload-targets.properties: " + e.getMessage(), e);
        }
        return List.of(targets.getProperty("targets").trim().split(","));
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new KernelBuildException(option + " needs a value");
        }
        return args[i];
    }

    /** Compiles every {@code .hip} file under the sources; returns the code objects now up to date. */
    List<Path> run() {
        List<Path> hipFiles = sourceFiles();
        List<Path> written = new ArrayList<>();
        Path driver = null;
        String hipcc = gpu == Gpu.OFF ? null : findHipcc();
        if (hipcc == null && gpu == Gpu.ON) {
            throw new KernelBuildException("--gpu on, but hipcc was not found (looked in $ROCM_PATH/bin and on PATH):"
                    + " install ROCm's hipcc (or set ROCM_PATH)");
        }
        if (hipcc == null && gpu == Gpu.AUTO && !hipFiles.isEmpty()) {
            System.out.println("KernelCompiler: no hipcc ($ROCM_PATH/bin or PATH): GPU code objects (.hsaco) skipped;"
                    + " install ROCm to build them");
        }
        for (Path source : hipFiles) {
            String relative = sources.relativize(source).toString();
            String stem = relative.substring(0, relative.length() - ".hip".length());
            Path emuco = output.resolve(stem + ".emuco");
            if (driver == null) {
                driver = emulatorDriver();
            }
            if (!upToDate(emuco, source) || !upToDate(emuco, driver)) { // a new driver rebuilds every object
                compileEmulator(driver, source, emuco);
            }
            written.add(emuco);
            if (hipcc != null) {
                Path hsaco = output.resolve(stem + ".hsaco");
                if (!upToDate(hsaco, source)) {
                    compileGpu(hipcc, source, hsaco);
                }
                written.add(hsaco);
            }
        }
        return written;
    }

    private List<Path> sourceFiles() {
        if (!Files.isDirectory(sources)) {
            throw new KernelBuildException("the kernel source directory " + sources + " does not exist");
        }
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(p -> p.toString().endsWith(".hip") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            throw new KernelBuildException("cannot list " + sources + ": " + e.getMessage());
        }
    }

    /** {@code target} exists and is newer than {@code input}. */
    private static boolean upToDate(Path target, Path input) {
        try {
            return Files.exists(target)
                    && Files.getLastModifiedTime(target).compareTo(Files.getLastModifiedTime(input)) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    // ---------------------------------------------------------------- the emulator's code object

    /** The driver of the installed tree given with --emu-root, or the one the -emu jar carries. */
    Path emulatorDriver() {
        requireTool("python3", "python3", "the CPU emulator's compile driver is a python3 script");
        String cxx = env.getOrDefault("CXX", "g++");
        requireTool(cxx, cxx.equals("g++") ? "g++" : cxx + " (from $CXX)", "the CPU emulator compiles kernels as C++17");
        if (emuRoot != null) {
            Path driver = emuRoot.resolve("bin").resolve(DRIVER);
            if (!Files.isRegularFile(driver)) {
                throw new KernelBuildException("--emu-root " + emuRoot + " has no bin/" + DRIVER);
            }
            return driver;
        }
        return EmulatorToolchain.extract().driver();
    }

    private void compileEmulator(Path driver, Path source, Path target) {
        List<String> command = new ArrayList<>(List.of("python3", driver.toString(), source.toString(), "-o",
                target.toString()));
        if (emuRoot == null) {
            EmulatorToolchain tree = EmulatorToolchain.extract();
            command.addAll(List.of("--emu-include", tree.kernelIncludes().toString(), "--emu-include",
                    tree.includes().toString(), "--emu-lib", tree.libraries().toString()));
        }
        for (String dir : includes) {
            command.addAll(List.of("-I", dir));
        }
        execute(command, source, target);
    }

    // ---------------------------------------------------------------- the GPU code object

    private String findHipcc() {
        String rocm = env.get("ROCM_PATH");
        if (rocm != null && Files.isExecutable(Path.of(rocm, "bin", "hipcc"))) {
            return Path.of(rocm, "bin", "hipcc").toString();
        }
        Path onPath = onPath("hipcc");
        return onPath == null ? null : onPath.toString();
    }

    private void compileGpu(String hipcc, Path source, Path target) {
        String home = env.getOrDefault("ROCSHMEM_HOME", env.getOrDefault("ROCM_PATH", "/opt/rocm"));
        List<String> command = new ArrayList<>(List.of(hipcc, "--genco", "-fgpu-rdc", "-O3", "-std=c++17"));
        for (String arch : archs) {
            command.add("--offload-arch=" + arch);
        }
        command.addAll(List.of("-I", Path.of(home, "include").toString()));
        for (String dir : includes) {
            command.addAll(List.of("-I", dir));
        }
        command.addAll(List.of(source.toString(), "-o", target.toString()));
        Path library = Path.of(home, "lib", "librocshmem.a");
        if (Files.exists(library)) {
            // rocSHMEM's device code, linked into the code object (-fgpu-rdc); -x none, or hipcc's -x hip takes the
            // archive for a source
            command.addAll(List.of("-x", "none", library.toString()));
        }
        execute(command, source, target);
    }

    // ---------------------------------------------------------------- processes

    private static void execute(List<String> command, Path source, Path target) {
        try {
            Files.createDirectories(target.toAbsolutePath().getParent());
            Process process = new ProcessBuilder(command).inheritIO().start();
            int status = process.waitFor();
            if (status != 0) {
                Files.deleteIfExists(target);
                throw new KernelBuildException("compiling " + source + " failed (exit status " + status + " of "
                        + String.join(" ", command) + ")");
            }
        } catch (IOException e) {
            throw new KernelBuildException("cannot run " + command.get(0) + " for " + source + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KernelBuildException("interrupted while compiling " + source);
        }
    }

    private void requireTool(String tool, String shown, String why) {
        if (tool.contains(File.separator) ? !Files.isExecutable(Path.of(tool)) : onPath(tool) == null) {
            throw new KernelBuildException(why + ", but " + shown + " is not on PATH: install it (Debian/Ubuntu: "
                    + "apt-get install " + (tool.equals("python3") ? "python3" : "g++") + ")");
        }
    }

    private Path onPath(String tool) {
        for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return Path.of(dir, tool);
            }
        }
        return null;
    }

    /** The emulator's driver, kernel headers and libraries, extracted from the -emu jar by JavaCPP's Loader. */
    record EmulatorToolchain(Path driver, Path kernelIncludes, Path includes, Path libraries) {
        private static EmulatorToolchain extracted;

        static synchronized EmulatorToolchain extract() {
            if (extracted != null) {
                return extracted;
            }
            String base = "/org/rocshmem/" + Loader.getPlatform() + "-emu/";
            try {
                if (KernelCompiler.class.getResource(base + "bin/" + DRIVER) == null) {
                    throw new KernelBuildException("the CPU emulator's compile driver is not on the class path (no "
                            + base.substring(1) + "bin/" + DRIVER + "): depend on org.rocshmem:rocshmem-platform-emu,"
                            + " whose " + Loader.getPlatform() + "-emu jar carries the driver and headers");
                }
                java.net.URL driverUrl = KernelCompiler.class.getResource(base + "bin/" + DRIVER);
                if (driverUrl.getProtocol().equals("file")) { // an exploded class-path directory: use it in place
                    Path root = Path.of(driverUrl.toURI()).getParent().getParent();
                    extracted = new EmulatorToolchain(root.resolve("bin").resolve(DRIVER),
                            root.resolve("include/rocshmem-emu-kernel"), root.resolve("include"), root);
                    return extracted;
                }
                File driver = Loader.cacheResource(KernelCompiler.class, base + "bin/" + DRIVER);
                File include = Loader.cacheResource(KernelCompiler.class, base + "include");
                File hip = Loader.cacheResource(KernelCompiler.class, base + "libhip_cpu_emu.so");
                Loader.cacheResource(KernelCompiler.class, base + "librocshmem_cpu_emu.so");
                if (driver == null || include == null || hip == null || !include.isDirectory()) {
                    throw new KernelBuildException("the " + Loader.getPlatform() + "-emu jar on the class path lacks"
                            + " the driver, its headers or the emulator's libraries: rebuild it with this release");
                }
                extracted = new EmulatorToolchain(driver.toPath(), include.toPath().resolve("rocshmem-emu-kernel"),
                        include.toPath(), hip.toPath().getParent());
                return extracted;
            } catch (IOException | java.net.URISyntaxException e) {
                throw new KernelBuildException("cannot extract the CPU emulator's compile driver: " + e.getMessage());
            }
        }
    }
}
