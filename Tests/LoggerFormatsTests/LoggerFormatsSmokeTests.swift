// Tests for this module go here.
