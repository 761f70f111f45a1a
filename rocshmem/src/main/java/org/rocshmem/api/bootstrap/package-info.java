/**
 * Getting every PE the same rocSHMEM unique id before init.
 *
 * <p>{@link org.rocshmem.api.bootstrap.LaunchEnvironment} says who this process is (launcher, torchrun-style or
 * Open MPI variables); {@link org.rocshmem.api.bootstrap.UniqueIdExchange} moves the id, by default over
 * {@link org.rocshmem.api.bootstrap.TcpUniqueIdExchange}:
 * <pre>{@code
 * LaunchEnvironment env = LaunchEnvironment.fromSystemEnvironment();
 * byte[] uid = new TcpUniqueIdExchange(env).exchange(env.rank(), env.worldSize(), () -> createUniqueIdOnRoot());
 * }</pre>
 */
package org.rocshmem.api.bootstrap;
