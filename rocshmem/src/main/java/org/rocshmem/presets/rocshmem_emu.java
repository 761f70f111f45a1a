package org.rocshmem.presets;

import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;
import org.bytedeco.javacpp.tools.InfoMap;
import org.bytedeco.javacpp.tools.InfoMapper;

/**
 * The CPU emulator's private C API ({@code rocshmem_emu.h}): why init failed, the largest
 * alignment, raw views that die with their block. Only the {@code -emu} variant has it; the
 * org.rocshmem.api classes call it through {@code org.rocshmem.api.Emulator}, never on a GPU.
 */
@Properties(
    inherit = org.bytedeco.javacpp.presets.javacpp.class,
    // Functions only: the whole binding is one class.
    target = "org.rocshmem.global.rocshmem_emu",
    value = @Platform(
        value = "linux-x86_64",
        extension = "-emu",
        include = "rocshmem_emu.h",
        link = "rocshmem_cpu_emu"))
@NoException
public class rocshmem_emu implements InfoMapper {

    @Override public void map(InfoMap infoMap) {
        // Plain C declarations: nothing to adjust.
    }
}
