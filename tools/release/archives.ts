/**
 * The two archive formats the release ships one executable in: a zip (Terraform's provider packages) and a
 * gzipped tar (Pulumi's plugin packages). Written here rather than by `zip`/`tar`, which a build machine may
 * lack, and byte for byte reproducible (fixed times, owners and order), so SHA256SUMS change only with the
 * executable.
 */
import { crc32, deflateRawSync, gzipSync, inflateRawSync } from "node:zlib";

/** An executable's Unix mode, as both formats record it. */
const EXECUTABLE = 0o100755;

/** A zip holding one executable file `name`. */
export function zipOne(name: string, data: Buffer): Buffer {
  const fileName = Buffer.from(name, "utf8");
  const compressed = deflateRawSync(data);
  const crc = crc32(data);
  // DOS date 1980-01-01 00:00, the earliest a zip can say.
  const time = 0;
  const date = (0 << 9) | (1 << 5) | 1;
  const utf8Flag = 0x0800;

  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed: deflate
  local.writeUInt16LE(utf8Flag, 6);
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt16LE(time, 10);
  local.writeUInt16LE(date, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(compressed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  local.writeUInt16LE(0, 28);

  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so that the external attributes hold a mode
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(utf8Flag, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt16LE(time, 12);
  central.writeUInt16LE(date, 14);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(compressed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  central.writeUInt32LE((EXECUTABLE << 16) >>> 0, 38);
  central.writeUInt32LE(0, 42); // the local header's offset

  const centralOffset = local.length + fileName.length + compressed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);

  if (centralOffset > 0xffffffff) throw new Error(`${name} is too large for a zip without zip64`);
  return Buffer.concat([local, fileName, compressed, central, fileName, end]);
}

/** A ustar header field: octal digits, zero-padded, then NUL. */
const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, "0")}\0`;

/** A .tar.gz holding one executable file `name`, owned by root, dated 1970. */
export function tarGzOne(name: string, data: Buffer): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`${name}: a ustar name has at most 100 bytes`);
  const header = Buffer.alloc(512);
  header.write(name, 0, "utf8");
  header.write(octal(EXECUTABLE & 0o7777, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(data.length, 12), 124);
  header.write(octal(0, 12), 136);
  header.write(" ".repeat(8), 148); // the checksum counts its own field as spaces
  header.write("0", 156); // a regular file
  header.write("ustar\0", 257);
  header.write("00", 263);
  header.write("root", 265);
  header.write("root", 297);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  // Two zero blocks end the archive.
  return gzipSync(Buffer.concat([header, data, padding, Buffer.alloc(1024)]));
}

/** The one file of a zip `zipOne` wrote (or any zip of one deflated or stored file): name, mode, data. */
export function unzipOne(zip: Buffer): { name: string; mode: number; data: Buffer } {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || zip.readUInt16LE(end + 10) !== 1) throw new Error("not a zip of one file");
  const central = zip.readUInt32LE(end + 16);
  const method = zip.readUInt16LE(central + 10);
  const size = zip.readUInt32LE(central + 20);
  const nameLength = zip.readUInt16LE(central + 28);
  const mode = zip.readUInt32LE(central + 38) >>> 16;
  const name = zip.toString("utf8", central + 46, central + 46 + nameLength);
  const local = zip.readUInt32LE(central + 42);
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const stored = zip.subarray(start, start + size);
  return { name, mode, data: method === 8 ? inflateRawSync(stored) : stored };
}
