package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.ROCSHMEM_MAX_NAME_LEN;
import static org.rocshmem.global.rocshmem.rocshmem_info_get_name;
import static org.rocshmem.global.rocshmem.rocshmem_info_get_version;
import static org.rocshmem.global.rocshmem.rocshmem_vendor_get_version_info;

import java.nio.charset.StandardCharsets;

/**
 * What the loaded rocSHMEM reports about itself.
 *
 * @param name        the vendor string (rocshmem_info_get_name)
 * @param specMajor   the OpenSHMEM specification version it implements (rocshmem_info_get_version)
 * @param specMinor   ditto, minor
 * @param vendorMajor the library's own version (rocshmem_vendor_get_version_info)
 * @param vendorMinor ditto, minor
 * @param vendorPatch ditto, patch
 */
public record LibraryInfo(String name, int specMajor, int specMinor, int vendorMajor, int vendorMinor,
                          int vendorPatch) {

    static LibraryInfo query() {
        byte[] text = new byte[ROCSHMEM_MAX_NAME_LEN + 1];
        rocshmem_info_get_name(text);
        int end = 0;
        while (end < text.length && text[end] != 0) {
            end++;
        }
        int[] major = {0};
        int[] minor = {0};
        rocshmem_info_get_version(major, minor);
        int[] vMajor = {0};
        int[] vMinor = {0};
        int[] vPatch = {0};
        rocshmem_vendor_get_version_info(vMajor, vMinor, vPatch);
        return new LibraryInfo(new String(text, 0, end, StandardCharsets.UTF_8), major[0], minor[0], vMajor[0],
                vMinor[0], vPatch[0]);
    }

    /** e.g. "1.5" */
    public String specVersion() {
        return specMajor + "." + specMinor;
    }

    /** e.g. "3.8.0" */
    public String vendorVersion() {
        return vendorMajor + "." + vendorMinor + "." + vendorPatch;
    }
}
