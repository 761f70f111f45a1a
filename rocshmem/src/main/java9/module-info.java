module org.rocshmem {
    requires transitive org.bytedeco.javacpp;
    exports org.rocshmem.global;
    exports org.rocshmem.hip;
    exports org.rocshmem.rocshmem;
    exports org.rocshmem.rccl;
    exports org.rocshmem.presets;
    exports org.rocshmem.api;
    exports org.rocshmem.api.launch;
    exports org.rocshmem.api.bootstrap;
    exports org.rocshmem.api.rccl;
    exports org.rocshmem.api.kernel;
}
