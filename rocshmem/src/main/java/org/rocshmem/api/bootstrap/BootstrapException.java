package org.rocshmem.api.bootstrap;

/** Bootstrap failed: bad launch environment, unreachable or untrusted rendezvous peer, or timeout. */
public class BootstrapException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BootstrapException(String message) {
        super(message);
    }

    public BootstrapException(String message, Throwable cause) {
        super(message, cause);
    }
}
