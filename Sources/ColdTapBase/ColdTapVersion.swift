/// The version of this ColdTap: what `coldtap --version` prints, what every report names
/// and what the archive stamps on each read it keeps (its provenance), one value for all.
public enum ColdTapVersion {
    public static let current = "0.2.0"
}
