package dev.agentarena.junit.engine.models.openai;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw loopback server that cuts its first {@code resets} connections halfway through the response (TCP reset),
 * then answers properly. HttpServer cannot reset a connection mid-response, hence a socket.
 */
final class ResettingServer implements AutoCloseable {

    final AtomicInteger requests = new AtomicInteger();

    private final ServerSocket socket;
    private final Thread acceptor;
    private final int resets;

    ResettingServer(int resets) throws IOException {
        this.resets = resets;
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::serve, "resetting-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
    }

    private void serve() {
        // bounded: a test makes a handful of requests
        for (int i = 0; i < 50 && !socket.isClosed(); i++) {
            try (Socket connection = socket.accept()) {
                connection.setSoTimeout(5_000);
                readRequest(connection.getInputStream());
                int index = requests.incrementAndGet();
                OutputStream out = connection.getOutputStream();
                String body = FakeChatServer.completion("after reset");
                if (index <= resets) {
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                            + body.length() + "\r\n\r\n" + body.substring(0, 20)).getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    connection.setSoLinger(true, 0);
                }
                else {
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                            + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
            catch (SocketException closed) {
                return;
            }
            catch (IOException e) {
                // a broken client connection: go on accepting
            }
        }
    }

    private static void readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        int b;
        while ((b = in.read()) != -1) {
            head.write(b);
            last4 = (last4 << 8) | b;
            if (last4 == 0x0D0A0D0A) {
                break;
            }
        }
        int length = 0;
        for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        in.readNBytes(length);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
