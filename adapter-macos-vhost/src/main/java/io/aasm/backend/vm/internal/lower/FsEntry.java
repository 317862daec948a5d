package io.aasm.backend.vm.internal.lower;

/** One filesystem grant after resolution: the real host path shared (or a pseudo filesystem) and its access. */
record FsEntry(String path, boolean write, Kind kind) {
    enum Kind {
        /** A host folder, shared as a slot of its own. */
        FOLDER,
        /** A host file (or socket, FIFO): its folder is shared read-only, only the file is bound into the view. */
        FILE,
        /** The guest's own procfs. */
        PROC,
        /** The guest's own sysfs. */
        SYSFS
    }
}
