package org.rocshmem.api;

/**
 * Runs an init call and, when it fails, puts the emulator's recorded reason into the exception message:
 * rocshmem_init() returns nothing and rocshmem_init_attr() only a status, but the emulator remembers why
 * (rocshmem_emu_last_init_error). On real rocSHMEM the message stays as it is (the reason is on stderr).
 */
final class InitFailure {
    private InitFailure() {
    }

    static void run(Runnable initCall, Backend backend) {
        try {
            initCall.run();
        } catch (RocshmemException e) {
            String reason = Emulator.lastInitError(backend);
            if (reason.isEmpty()) {
                throw e;
            }
            throw new RocshmemException(withoutStderrHint(e.getMessage()) + ": " + reason, e);
        }
    }

    /** The generic "see stderr" hints of the init checks are wrong once the reason is in the message. */
    private static String withoutStderrHint(String message) {
        return message.replace(" (rocSHMEM prints the reason on stderr)", "")
                .replace("; rocSHMEM printed the reason on stderr", "");
    }
}
