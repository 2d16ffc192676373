#if canImport(CCairo) && !canImport(CoreGraphics)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Zeroed memory mapped for one image or buffer and unmapped with this object, in
    /// transparent huge pages where the kernel gives them (Linux with THP "madvise" or
    /// "always"): a 1200 × 600 surface (2.9 MB) is then touched in two page faults instead of
    /// some 700, which cost about 1 ms of every chart; the memory malloc gives a buffer this
    /// large is fresh pages too, so that was no saving. Elsewhere the same memory in
    /// ordinary pages. For a small image a huge page would be more to clear than it saves.
    final class MappedMemory {
        /// The size from which mapping memory of its own pays (a huge page is 2 MB).
        static let worthwhile = 1 << 20

        let pointer: UnsafeMutableRawPointer
        /// The usable bytes from `pointer` (at least as many as asked for).
        let size: Int
        private let mapping: UnsafeMutableRawPointer
        private let mappingSize: Int

        /// `nil` when the memory cannot be mapped.
        init?(size requested: Int) {
            guard requested > 0 else { return nil }
            let hugePage = 2 << 20
            // Whole huge pages, and room to start at a huge-page boundary.
            let size = (requested + hugePage - 1) / hugePage * hugePage
            let mappingSize = size + hugePage
            guard let mapping = mmap(nil, mappingSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                mapping != MAP_FAILED
            else { return nil }
            let aligned = (Int(bitPattern: mapping) + hugePage - 1) / hugePage * hugePage
            guard let pointer = UnsafeMutableRawPointer(bitPattern: aligned) else {
                munmap(mapping, mappingSize)
                return nil
            }
            #if os(Linux)
                // Advice only: without huge pages the mapping works the same.
                _ = madvise(pointer, size, MADV_HUGEPAGE)
            #endif
            self.pointer = pointer
            self.size = size
            self.mapping = mapping
            self.mappingSize = mappingSize
        }

        deinit {
            munmap(mapping, mappingSize)
        }
    }
#endif
