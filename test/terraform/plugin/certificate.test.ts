import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { selfSignedCertificate } from "../../../src/terraform/plugin/certificate.ts";

describe("the self-signed localhost certificate (our DER encoder)", () => {
  const now = new Date("2031-05-06T07:08:09.123Z");
  const cert = selfSignedCertificate({ now, validForMs: 3_600_000 });
  const x509 = new X509Certificate(cert.der);

  it("parses as X.509 with subject and issuer CN=localhost", () => {
    expect(x509.subject).toBe("CN=localhost");
    expect(x509.issuer).toBe("CN=localhost");
    expect(new X509Certificate(cert.certPem).fingerprint256).toBe(x509.fingerprint256);
  });

  it("names localhost and 127.0.0.1 in its subjectAltName", () => {
    expect(x509.subjectAltName).toBe("DNS:localhost, IP Address:127.0.0.1");
    expect(x509.checkHost("localhost")).toBe("localhost");
    expect(x509.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(x509.checkHost("example.com")).toBeUndefined();
  });

  it("is valid from a minute before now for the requested time", () => {
    expect(new Date(x509.validFrom).toISOString()).toBe("2031-05-06T07:07:09.000Z");
    expect(new Date(x509.validTo).toISOString()).toBe("2031-05-06T08:08:09.000Z");
  });

  it("uses GeneralizedTime from 2050 on", () => {
    const late = new X509Certificate(selfSignedCertificate({ now: new Date("2051-01-01T00:00:00Z") }).der);
    expect(new Date(late.validFrom).toISOString()).toBe("2050-12-31T23:59:00.000Z");
  });

  it("is signed by its own P-256 key, and the PEM key matches the certificate", () => {
    expect(x509.verify(cert.publicKey)).toBe(true);
    expect(x509.verify(selfSignedCertificate().publicKey)).toBe(false);
    expect(x509.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: "prime256v1" });
    expect(x509.checkPrivateKey(createPrivateKey(cert.keyPem))).toBe(true);
  });

  it("serves both TLS server and client authentication, as its own CA", () => {
    expect(x509.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
    expect(x509.ca).toBe(true);
  });

  it("has a fresh positive 16-byte serial each time", () => {
    expect(x509.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
    expect(selfSignedCertificate().der.equals(selfSignedCertificate().der)).toBe(false);
  });

  it("encodes the public key as the key's own SubjectPublicKeyInfo", () => {
    const spki = cert.publicKey.export({ type: "spki", format: "der" });
    expect(x509.publicKey.export({ type: "spki", format: "der" }).equals(spki)).toBe(true);
    expect(createPublicKey(cert.certPem).equals(cert.publicKey)).toBe(true);
  });
});
