package org.rocshmem.samples.torch;

import static org.bytedeco.pytorch.global.torch.arange;
import static org.bytedeco.pytorch.global.torch.relu;

import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.pytorch.SymmetricTensor;
import org.rocshmem.pytorch.TorchShmem;

/**
 * Symmetric PyTorch tensors in a ring: every PE computes a small layer, {@code relu(x @ w) * 0.5}, straight into a
 * symmetric tensor (no copy: the tensor's data is the symmetric heap), puts it into the next PE's inbox on a HIP
 * stream, and checks what it received against the same layer computed serially for the previous PE's input.
 * Exits with status 1 on a mismatch. On the emulator the tensors are CPU tensors.
 *
 * <pre>
 * ./samples/run.sh torch.TorchRing 2
 * </pre>
 */
public final class TorchRing {
    private static final int ROWS = 8;
    private static final int COLS = 16;

    private TorchRing() {
    }

    public static void main(String[] args) {
        boolean ok;
        try (Rocshmem shmem = Rocshmem.init();
             HipStream stream = HipStream.create()) {
            TorchShmem torch = TorchShmem.of(shmem);
            int me = shmem.myPe();
            int n = shmem.nPes();
            int next = (me + 1) % n;
            int previous = (me - 1 + n) % n;
            try (SymmetricTensor activations = torch.create(ScalarType.Float, ROWS, COLS);
                 SymmetricTensor inbox = torch.create(ScalarType.Float, ROWS, COLS)) {
                activations.tensor().copy_(layer(me));                 // torch computes into symmetric memory
                torch.barrierAll(stream);                              // every inbox exists before the puts
                torch.put(inbox, activations, next, stream);           // rocshmem_putmem_on_stream
                stream.synchronize();
                shmem.barrierAll();                                    // every PE's put has arrived

                Tensor expected = layer(previous);                     // the serial result for the previous PE
                ok = inbox.tensor().equal(expected);
                double checksum = inbox.tensor().sum().item_double();
                System.out.printf("PE %d/%d: received relu(x @ w) * 0.5 of PE %d from its put, checksum %.4f: %s%n",
                        me, n, previous, checksum, ok ? "verified against the serial result" : "WRONG");
                shmem.barrierAll();
            }
        }
        if (!ok) {
            System.exit(1);
        }
    }

    /** PE {@code pe}'s layer: input {@code x} = arange + pe, weights {@code w} fixed; deterministic on every PE. */
    static Tensor layer(int pe) {
        TensorOptions floats = new TensorOptions(ScalarType.Float);
        Tensor x = arange(new Scalar(0), new Scalar(ROWS * COLS), floats).reshape(ROWS, COLS)
                .div(new Scalar(ROWS * COLS)).sub(new Scalar(0.5)).add(new Scalar(pe));
        Tensor w = arange(new Scalar(0), new Scalar(COLS * COLS), floats).reshape(COLS, COLS)
                .remainder(new Scalar(7)).sub(new Scalar(3)).div(new Scalar(10));
        return relu(x.matmul(w)).mul(new Scalar(0.5));
    }
}
