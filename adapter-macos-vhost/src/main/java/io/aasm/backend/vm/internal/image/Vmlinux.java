package io.aasm.backend.vm.internal.image;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * The uncompressed kernel inside a Debian bzImage. QEMU boots an ELF with a PVH note directly, which skips
 * the real-mode setup and, above all, the in-guest XZ decompression (about 4 s under TCG). The compressed
 * payload's place is in the boot header (payload_offset, payload_length); gzip is read here, XZ, LZ4 and
 * zstd through their usual tools.
 */
final class Vmlinux {
    private Vmlinux() {
    }

    static void extract(Path bzImage, Path out) throws IOException {
        byte[] img = Files.readAllBytes(bzImage);
        ByteBuffer b = ByteBuffer.wrap(img).order(ByteOrder.LITTLE_ENDIAN);
        if (img.length < 0x260 || b.getInt(0x202) != 0x53726448) { // "HdrS"
            throw new IOException(bzImage + " is not a bzImage (no boot header)");
        }
        int setupSects = img[0x1f1] == 0 ? 4 : img[0x1f1] & 0xff;
        int start = (setupSects + 1) * 512 + b.getInt(0x248);
        int len = b.getInt(0x24c);
        if (start < 0 || len <= 0 || start + len > img.length) {
            throw new IOException(bzImage + ": the payload lies outside the file");
        }
        byte[] payload = Arrays.copyOfRange(img, start, start + len);
        if (payload[0] == 0x1f && (payload[1] & 0xff) == 0x8b) {
            try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(payload));
                 OutputStream o = Files.newOutputStream(out)) {
                in.transferTo(o);
            }
        } else if ((payload[0] & 0xff) == 0xfd && payload[1] == '7' && payload[2] == 'z') {
            tool(List.of("xz", "-dc", "--single-stream"), payload, out, "xz-utils");
        } else if (payload[0] == 0x02 && payload[1] == 0x21) {
            tool(List.of("lz4", "-dc"), payload, out, "lz4");
        } else if (payload[0] == 0x28 && (payload[1] & 0xff) == 0xb5) {
            tool(List.of("zstd", "-dcq"), payload, out, "zstd");
        } else {
            throw new IOException(bzImage + ": unknown kernel compression");
        }
        byte[] head = new byte[4];
        try (InputStream in = Files.newInputStream(out)) {
            if (in.read(head) != 4 || head[0] != 0x7f || head[1] != 'E' || head[2] != 'L' || head[3] != 'F') {
                throw new IOException(bzImage + ": the decompressed payload is not an ELF kernel");
            }
        }
    }

    private static void tool(List<String> cmd, byte[] payload, Path out, String pkg) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IOException("decompressing the kernel needs '" + cmd.get(0) + "' (Debian package " + pkg + "): "
                    + e.getMessage(), e);
        }
        try (OutputStream in = p.getOutputStream()) {
            in.write(payload);
        } catch (IOException e) {
            // the tool stops reading after the single stream; what it wrote is judged below
        }
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(cmd.get(0) + " did not finish decompressing the kernel");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while decompressing the kernel");
        }
        if (p.exitValue() != 0) {
            throw new IOException(cmd.get(0) + " failed (exit " + p.exitValue() + ") decompressing the kernel");
        }
    }
}
