package org.rocshmem.api.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Per-launch random values: the emulator job id, the bootstrap secret and a free rendezvous port. */
final class JobIdentity {
    private static final SecureRandom RANDOM = new SecureRandom();

    private JobIdentity() {
    }

    static String randomHex(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }

    /**
     * Asks the OS for a free port on {@code address}. Another process could grab it before rank 0 binds it;
     * the window is short and a clash fails loudly in rank 0's bind, so this is good enough for one node.
     */
    static int freePort(String address) throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
            return socket.getLocalPort();
        }
    }
}
