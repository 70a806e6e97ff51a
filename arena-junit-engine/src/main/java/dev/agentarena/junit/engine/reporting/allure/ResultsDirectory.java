package dev.agentarena.junit.engine.reporting.allure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;

/**
 * Where Allure writes results, resolved as Allure does: the {@code allure.results.directory} system property, else
 * the same key in {@code allure.properties} on the class path, else {@code allure-results}, relative to the working
 * directory.
 */
final class ResultsDirectory {

    static final String KEY = "allure.results.directory";

    private ResultsDirectory() {
    }

    static Path resolve() {
        String value = System.getProperty(KEY);
        if (value == null || value.isBlank()) {
            value = fromAllureProperties();
        }
        return Paths.get(value == null || value.isBlank() ? "allure-results" : value.strip());
    }

    private static String fromAllureProperties() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ResultsDirectory.class.getClassLoader();
        }
        try (InputStream in = loader.getResourceAsStream("allure.properties")) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty(KEY);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
