-- Device addresses are upper-case hex on the wire (docs/protocol.md); rows imported before that rule follow it.
UPDATE "devices" SET "addr" = upper("addr") WHERE "addr" <> upper("addr");
