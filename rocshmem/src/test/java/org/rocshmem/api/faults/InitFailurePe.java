package org.rocshmem.api.faults;

import org.rocshmem.api.Bootstrap;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemException;

/** {@code InitFailurePe launched|raw}: initializes and prints "MESSAGE: <exception message>" if that fails. */
public final class InitFailurePe {
    private InitFailurePe() {
    }

    public static void main(String[] args) {
        try (Rocshmem shmem = args[0].equals("raw") ? Rocshmem.init(Bootstrap.libraryOwn()) : Rocshmem.init()) {
            System.out.println("INITIALIZED PE " + shmem.myPe());
        } catch (RocshmemException e) {
            System.out.println("MESSAGE: " + e.getMessage());
        }
    }
}
