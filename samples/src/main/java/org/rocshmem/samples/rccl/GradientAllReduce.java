package org.rocshmem.samples.rccl;

import java.util.Arrays;
import java.util.Random;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricDoubles;
import org.rocshmem.api.hip.DeviceBuffer;
import org.rocshmem.api.rccl.Communicator;
import org.rocshmem.api.rccl.RedOp;

/**
 * Data-parallel training with RCCL and rocSHMEM in one job. Every PE fits the same linear model to its own shard
 * of data: it computes the gradient of its shard, RCCL averages the gradients of all PEs (all-reduce AVG, on a
 * typed view of rocSHMEM symmetric memory), and every PE takes the same step. rocSHMEM then carries the one-sided
 * traffic: each PE reads PE 0's weights with a get and checks that the replicas never drift apart. Exits with status 1 if they
 * do or if the model does not converge.
 *
 * <pre>
 * ./samples/run.sh rccl.GradientAllReduce 2 [steps]
 * </pre>
 */
public final class GradientAllReduce {
    static final int FEATURES = 8;
    static final int SAMPLES_PER_PE = 64;
    static final double LEARNING_RATE = 0.1;

    private GradientAllReduce() {
    }

    public static void main(String[] args) {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        boolean ok;
        // Both rendezvous on MASTER_PORT, one after the other (either order works, the same on every rank).
        try (Rocshmem shmem = Rocshmem.init();
             Communicator comm = Communicator.init();
             HipStream stream = HipStream.create();
             SymmetricBuffer gradient = shmem.calloc(FEATURES, Double.BYTES);
             SymmetricBuffer weights = shmem.calloc(FEATURES, Double.BYTES)) {
            int me = shmem.myPe();
            double[][] x = new double[SAMPLES_PER_PE][FEATURES];
            double[] y = new double[SAMPLES_PER_PE];
            shard(me, x, y);

            double[] w = new double[FEATURES];
            double firstLoss = Double.NaN;
            double loss = Double.NaN;
            boolean replicasAgree = true;
            SymmetricDoubles gradients = gradient.asDoubles();
            DeviceBuffer onDevice = gradients.asDeviceBuffer();  // length and RCCL type from the view
            for (int step = 0; step < steps; step++) {
                double[] g = new double[FEATURES];
                double localLoss = gradient(w, x, y, g);
                gradients.copyFrom(g);
                comm.allReduce(onDevice, onDevice, FEATURES, RedOp.AVG, stream);
                stream.synchronize();
                gradients.copyTo(g);
                for (int j = 0; j < FEATURES; j++) {
                    w[j] -= LEARNING_RATE * g[j];
                }
                if (step == 0) {
                    firstLoss = localLoss;
                }
                loss = localLoss;

                // One-sided check of the replicas: fetch PE 0's weights with rocshmem_getmem.
                weights.asDoubles().copyFrom(w);
                shmem.barrierAll();
                double[] theirs = new double[FEATURES];
                weights.asDoubles().get(0, theirs);             // rocshmem_double_get from PE 0
                replicasAgree &= Arrays.equals(theirs, w);
                shmem.barrierAll();  // nobody overwrites its weights before everyone has read PE 0's
            }
            ok = replicasAgree && loss < firstLoss / 100;
            System.out.printf("PE %d/%d: %d steps, shard loss %.6f -> %.6f, replicas %s (checked with rocshmem get)%n",
                    me, shmem.nPes(), steps, firstLoss, loss, replicasAgree ? "identical" : "DIFFER");
            if (me == 0) {
                System.out.printf("PE 0: weights %s%n", Arrays.toString(Arrays.stream(w).map(v -> Math.round(v * 1000) / 1000.0).toArray()));
            }
        }
        if (!ok) {
            System.exit(1);
        }
    }

    /** This PE's data: y = w_true . x with w_true = (1, 2, ..., FEATURES) / FEATURES, x drawn per PE. */
    static void shard(int pe, double[][] x, double[] y) {
        Random random = new Random(1000 + pe);
        for (int i = 0; i < x.length; i++) {
            double dot = 0;
            for (int j = 0; j < FEATURES; j++) {
                x[i][j] = random.nextDouble() * 2 - 1;
                dot += x[i][j] * (j + 1) / (double) FEATURES;
            }
            y[i] = dot;
        }
    }

    /** Mean squared error of the shard, and its gradient into {@code g}. */
    static double gradient(double[] w, double[][] x, double[] y, double[] g) {
        double loss = 0;
        for (int i = 0; i < x.length; i++) {
            double error = -y[i];
            for (int j = 0; j < FEATURES; j++) {
                error += w[j] * x[i][j];
            }
            loss += error * error / x.length;
            for (int j = 0; j < FEATURES; j++) {
                g[j] += 2 * error * x[i][j] / x.length;
            }
        }
        return loss;
    }
}
