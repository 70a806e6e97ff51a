package dev.agentarena.junit.engine.reporting;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A file's channel on a disk with room for only so many more bytes, shared by every channel opened on it: a write
 * writes what fits and the next one fails as a full disk does ({@code No space left on device}). Freeing room lets
 * later writes through.
 */
final class FullDiskChannel extends FileChannel {

    private final FileChannel file;
    private final AtomicLong room;

    private FullDiskChannel(FileChannel file, AtomicLong room) {
        this.file = file;
        this.room = room;
    }

    /** Opens channels on a disk whose free bytes are {@code room}. */
    static ResultsFile.Opener opener(AtomicLong room) {
        return (Path path, Set<StandardOpenOption> options) -> new FullDiskChannel(FileChannel.open(path, options),
                room);
    }

    @Override
    public int write(ByteBuffer source) throws IOException {
        long left = room.get();
        if (left <= 0 && source.hasRemaining()) {
            throw new IOException("No space left on device");
        }
        int fits = (int) Math.min(left, source.remaining());
        ByteBuffer part = source.duplicate();
        part.limit(part.position() + fits);
        int written = file.write(part);
        source.position(source.position() + written);
        room.addAndGet(-written);
        return written;
    }

    @Override
    public long write(ByteBuffer[] sources, int offset, int length) throws IOException {
        long written = 0;
        for (int i = offset; i < offset + length; i++) {
            written += write(sources[i]);
        }
        return written;
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        long before = file.size();
        file.truncate(size);
        room.addAndGet(Math.max(0, before - file.size()));
        return this;
    }

    @Override
    public int read(ByteBuffer destination) throws IOException {
        return file.read(destination);
    }

    @Override
    public long read(ByteBuffer[] destinations, int offset, int length) throws IOException {
        return file.read(destinations, offset, length);
    }

    @Override
    public long position() throws IOException {
        return file.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        file.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return file.size();
    }

    @Override
    public void force(boolean metaData) throws IOException {
        file.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public long transferFrom(ReadableByteChannel source, long position, long count) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public int read(ByteBuffer destination, long position) throws IOException {
        return file.read(destination, position);
    }

    @Override
    public int write(ByteBuffer source, long position) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    protected void implCloseChannel() throws IOException {
        file.close();
    }
}
