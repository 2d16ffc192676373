// The CoreNFCTransport module; see DESIGN.md for its job.
