package dev.sue.hdl;

/** One problem found while elaborating or checking a design, with where it was described. */
public record HdlError(Location location, String message) {
    @Override
    public String toString() {
        return location + ": error: " + message;
    }
}
