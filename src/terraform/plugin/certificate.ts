/**
 * A self-signed X.509 certificate for `localhost`, for go-plugin's automatic mutual TLS.
 *
 * A small DER encoder for exactly this one certificate shape, instead of an x509 library: the library and
 * its decorators cost about a third of the provider's start-up budget, and the shape never varies.
 * Structure (RFC 5280 §4.1):
 *
 *   Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }
 *   TBSCertificate ::= SEQUENCE {
 *     version [0] EXPLICIT INTEGER (2 = v3), serialNumber INTEGER, signature AlgorithmIdentifier,
 *     issuer Name, validity SEQUENCE { notBefore, notAfter }, subject Name,
 *     subjectPublicKeyInfo, extensions [3] EXPLICIT SEQUENCE OF Extension }
 *
 * The key is ECDSA P-256 and the signature ecdsa-with-SHA256: node's `crypto.sign` gives that signature
 * already DER-encoded, and `KeyObject.export({ type: "spki" })` gives the SubjectPublicKeyInfo.
 */
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

// --- DER primitives (X.690): tag, definite length, contents ---

function tlv(tag: number, contents: Buffer): Buffer {
  const n = contents.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else {
    // Long form: 0x80 | number of length bytes, then the length big-endian.
    const bytes: number[] = [];
    for (let rest = n; rest > 0; rest >>>= 8) bytes.unshift(rest & 0xff);
    length = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), length, contents]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
/** Context-specific, constructed: `[n] EXPLICIT`. */
const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);
const boolean = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
const octetString = (contents: Buffer) => tlv(0x04, contents);
const utf8String = (text: string) => tlv(0x0c, Buffer.from(text, "utf8"));
/** A BIT STRING of whole bytes: the first content byte counts the unused bits of the last. */
const bitString = (bytes: Buffer, unusedBits = 0) =>
  tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));

/** A non-negative INTEGER in its minimal two's-complement form. */
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && (bytes[start + 1]! & 0x80) === 0) start++;
  const trimmed = bytes.subarray(start);
  // A leading 1 bit would read as negative: prefix a zero byte.
  return tlv(0x02, (trimmed[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

/** OBJECT IDENTIFIER: the first two arcs share a byte (40·a + b), the rest are base-128, high bit = more. */
function oid(dotted: string): Buffer {
  const arcs = dotted.split(".").map(Number);
  const out = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const groups = [arc & 0x7f];
    for (let rest = Math.floor(arc / 128); rest > 0; rest = Math.floor(rest / 128)) {
      groups.unshift((rest & 0x7f) | 0x80);
    }
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5), always in UTC to the second. */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // 2025-01-02T03:04:05.678Z
  const digits = iso.slice(0, 19).replace(/[-T:]/g, ""); // 20250102030405
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, "ascii"))
    : tlv(0x18, Buffer.from(`${digits}Z`, "ascii"));
}

// --- The certificate ---

const OID = {
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  commonName: "2.5.4.3",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectAltName: "2.5.29.17",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
};

const extension = (id: string, critical: boolean, value: Buffer) =>
  critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));

/** Name ::= SEQUENCE OF SET OF { type, value }: here only CN=<name>. */
const name = (commonName: string) => sequence(set(sequence(oid(OID.commonName), utf8String(commonName))));

export interface Certificate {
  /** The certificate, DER. */
  der: Buffer;
  /** The certificate, PEM (what TLS stacks and PLUGIN_CLIENT_CERT take). */
  certPem: string;
  /** The private key, PKCS#8 PEM. */
  keyPem: string;
  publicKey: KeyObject;
}

export interface CertificateOptions {
  /** Default now. */
  now?: Date;
  /** How long the certificate is valid; default 30 days. One plugin process needs it for a single run. */
  validForMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A fresh ECDSA P-256 key and a self-signed certificate for `localhost` (CN and SAN DNS, SAN IP 127.0.0.1)
 * usable for both server and client authentication. It is its own CA (basicConstraints CA, keyCertSign),
 * as go-plugin's own certificates are: each side puts the other's certificate in its trust store, and
 * OpenSSL only treats a self-signed certificate as its own issuer when its key usage allows cert signing.
 */
export function selfSignedCertificate(options: CertificateOptions = {}): Certificate {
  const now = options.now ?? new Date();
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });

  // 16 random bytes, positive and with a non-zero first byte so the INTEGER keeps all 16.
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x40;

  // Backdated a little so a client clock slightly behind ours still accepts it.
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now.getTime() + (options.validForMs ?? 30 * DAY_MS));

  const signatureAlgorithm = sequence(oid(OID.ecdsaWithSha256));
  const localhost = name("localhost");

  // KeyUsage BIT STRING, bits numbered from the most significant: digitalSignature(0), keyCertSign(5).
  // 0b10000100 = 0x84; the two trailing zero bits are unused.
  const keyUsage = bitString(Buffer.from([0x84]), 2);
  const subjectAltName = sequence(
    tlv(0x82, Buffer.from("localhost", "ascii")), // [2] dNSName
    tlv(0x87, Buffer.from([127, 0, 0, 1])), // [7] iPAddress
  );
  const extensions = sequence(
    extension(OID.basicConstraints, true, sequence(boolean(true))),
    extension(OID.keyUsage, true, keyUsage),
    extension(OID.extKeyUsage, false, sequence(oid(OID.serverAuth), oid(OID.clientAuth))),
    extension(OID.subjectAltName, false, subjectAltName),
  );

  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    signatureAlgorithm,
    localhost,
    sequence(time(notBefore), time(notAfter)),
    localhost,
    publicKey.export({ type: "spki", format: "der" }),
    explicit(3, extensions),
  );
  const signature = sign("sha256", tbs, privateKey);
  const der = sequence(tbs, signatureAlgorithm, bitString(signature));

  const base64Lines = der
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n");
  return {
    der,
    certPem: `-----BEGIN CERTIFICATE-----\n${base64Lines}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    publicKey,
  };
}
