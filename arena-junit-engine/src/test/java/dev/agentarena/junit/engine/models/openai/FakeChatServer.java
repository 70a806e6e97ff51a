package dev.agentarena.junit.engine.models.openai;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A Chat Completions server on loopback whose n-th request gets the n-th scripted behaviour (the last one repeats).
 * It records what it received.
 */
final class FakeChatServer implements AutoCloseable {

    interface Behaviour {
        void respond(HttpExchange exchange) throws IOException, InterruptedException;
    }

    /** Released at close, so hung handlers end with the test. */
    final CountDownLatch release = new CountDownLatch(1);
    final List<String> bodies = new CopyOnWriteArrayList<>();
    final List<String> authorizations = new CopyOnWriteArrayList<>();
    final List<String> paths = new CopyOnWriteArrayList<>();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Behaviour> script;

    FakeChatServer(List<Behaviour> script) throws IOException {
        this.script = script;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    int requests() {
        return bodies.size();
    }

    private void handle(HttpExchange exchange) throws IOException {
        int index;
        synchronized (this) {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            index = bodies.size() - 1;
        }
        authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
        paths.add(exchange.getRequestURI().toString());
        try {
            script.get(Math.min(index, script.size() - 1)).respond(exchange);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (IOException e) {
            // the client gave up on this exchange (a timeout): expected
        }
        finally {
            exchange.close();
        }
    }

    static Behaviour ok(String text) {
        return json(200, completion(text));
    }

    static Behaviour json(int status, String body) {
        return exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        };
    }

    static Behaviour withHeader(String name, String value, Behaviour then) {
        return exchange -> {
            exchange.getResponseHeaders().add(name, value);
            then.respond(exchange);
        };
    }

    /** Never answers until the server closes (bounded by the test's own timeout). */
    Behaviour hang() {
        return exchange -> release.await(10, TimeUnit.SECONDS);
    }

    /** Sends the headers and the body in pieces, pausing between them. */
    static Behaviour slowBody(String text, int pieces, long pauseMillis) {
        return exchange -> {
            byte[] bytes = completion(text).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                int size = (bytes.length + pieces - 1) / pieces;
                for (int offset = 0; offset < bytes.length; offset += size) {
                    out.write(bytes, offset, Math.min(size, bytes.length - offset));
                    out.flush();
                    Thread.sleep(pauseMillis);
                }
            }
        };
    }

    static String completion(String text) {
        return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":\"" + text + "\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}}";
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
