package org.rocshmem.api.hip;

/**
 * A device address given as a number, for a kernel's pointer parameter: {@code DeviceAddress.of(module
 * .globalAddress("table"))}, or {@link #NULL} for a null pointer. A pointer parameter takes only an address-typed
 * argument (a view, a buffer, a peer table, a {@code Pointer} or this wrapper), so that a {@code long} meant as a
 * count can never reach a kernel as an address; this wrapper says that the number is one.
 *
 * @param address the address, as device code receives it (0 for null)
 */
public record DeviceAddress(long address) {
    /** The null pointer. */
    public static final DeviceAddress NULL = new DeviceAddress(0);

    public static DeviceAddress of(long address) {
        return address == 0 ? NULL : new DeviceAddress(address);
    }

    @Override
    public String toString() {
        return "DeviceAddress[0x" + Long.toHexString(address) + "]";
    }
}
