package org.rocshmem.api.bootstrap;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Wire format of the TCP rendezvous. One connection per non-root rank:
 * <pre>
 * server -> client : MAGIC, VERSION, serverNonce[32]
 * client -> server : MAGIC, rank, clientNonce[32], HMAC(secret, "client" | serverNonce | clientNonce | rank)
 * server -> client : REJECTED_AUTH | REJECTED_RANK                                  (then close), or
 *                    ACCEPTED, HMAC(secret, "server" | clientNonce | serverNonce | rank | id), idLength, id
 * client -> server : ACK                                                            (id received and verified)
 * </pre>
 * Fresh nonces on both sides make every MAC single-use, so a recorded exchange cannot be replayed, and the
 * secret itself never crosses the wire. The server MAC covers the id, so a client only accepts an id from
 * someone who knows the secret.
 */
final class RendezvousProtocol {
    static final int MAGIC = 0x5253484D; // "RSHM"
    static final int VERSION = 1;
    static final int NONCE_BYTES = 32;
    static final int MAC_BYTES = 32;
    /** Far above ROCSHMEM_UNIQUE_ID_BYTES (128); only guards against allocating garbage lengths. */
    static final int MAX_ID_BYTES = 1 << 20;

    static final byte ACCEPTED = 1;
    static final byte REJECTED_AUTH = 2;
    static final byte REJECTED_RANK = 3;
    static final byte ACK = 4;

    private static final SecureRandom RANDOM = new SecureRandom();

    private RendezvousProtocol() {
    }

    static byte[] nonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    static byte[] clientMac(byte[] secret, byte[] serverNonce, byte[] clientNonce, int rank) {
        return hmac(secret, "client".getBytes(StandardCharsets.US_ASCII), serverNonce, clientNonce, intBytes(rank));
    }

    static byte[] serverMac(byte[] secret, byte[] clientNonce, byte[] serverNonce, int rank, byte[] id) {
        return hmac(secret, "server".getBytes(StandardCharsets.US_ASCII), clientNonce, serverNonce, intBytes(rank),
                intBytes(id.length), id);
    }

    /** Constant-time comparison so response timing leaks nothing about the expected MAC. */
    static boolean macMatches(byte[] expected, byte[] actual) {
        return MessageDigest.isEqual(expected, actual);
    }

    static byte[] readExactly(DataInputStream in, int length) throws IOException {
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    private static byte[] intBytes(int value) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(value).array();
    }

    private static byte[] hmac(byte[] secret, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime provides HmacSHA256", e);
        }
    }
}
