package dev.agentarena.samples.rag.retrieval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.samples.rag.retrieval.Handbook.Passage;

/**
 * The handbook in one in-memory Lucene index: each passage a document with its text for BM25 (Lucene's default
 * similarity, English analysis with stemming) and its all-MiniLM-L6-v2 vector for nearest-neighbour search (HNSW,
 * cosine). Searching is thread-safe.
 */
final class LuceneIndex {

    private static final String ID = "id";
    private static final String BODY = "body";
    private static final String VECTOR = "vector";
    /** How many candidates the nearest-neighbour search explores at least. */
    private static final int CANDIDATES = 100;

    private final Analyzer analyzer = new EnglishAnalyzer();
    private final IndexSearcher searcher;
    private final Map<String, Passage> byId;

    LuceneIndex(List<Passage> passages, Map<String, Passage> byId) {
        this.byId = byId;
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer))) {
            for (Passage passage : passages) {
                // tag::document[]
                Document document = new Document();
                document.add(new StringField(ID, passage.id(), Field.Store.YES));
                document.add(new TextField(BODY, passage.content(), Field.Store.NO));
                document.add(new KnnFloatVectorField(VECTOR, MiniLm.vector(passage.content()),
                        VectorSimilarityFunction.COSINE));
                writer.addDocument(document);
                // end::document[]
            }
            writer.forceMerge(1);
            writer.commit();
            searcher = new IndexSearcher(DirectoryReader.open(directory));
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot index the handbook", e);
        }
    }

    /** BM25 over the analysed words of the question. */
    Retriever bm25() {
        return (question, k) -> search(keywords(question), k, "lucene-bm25");
    }

    /**
     * The nearest passages to the question's embedding. HNSW is approximate: it explores {@link #CANDIDATES}
     * neighbours at least, so a small k does not miss the nearest passage.
     */
    Retriever vectors() {
        return (question, k) -> question.isBlank() ? List.of()
                : search(new KnnFloatVectorQuery(VECTOR, MiniLm.vector(question), Math.max(k, CANDIDATES)), k,
                        "lucene-hnsw");
    }

    /** The question's analysed terms, each once, as optional clauses (at most Lucene's clause limit). */
    private Query keywords(String question) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream tokens = analyzer.tokenStream(BODY, question)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken() && terms.size() < IndexSearcher.getMaxClauseCount()) {
                terms.add(term.toString());
            }
            tokens.end();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        terms.forEach(t -> query.add(new TermQuery(new Term(BODY, t)), BooleanClause.Occur.SHOULD));
        return query.build();
    }

    private List<RetrievedPassage> search(Query query, int k, String retriever) {
        try {
            List<RetrievedPassage> found = new ArrayList<>();
            for (ScoreDoc hit : searcher.search(query, k).scoreDocs) {
                Passage passage = byId.get(searcher.storedFields().document(hit.doc).get(ID));
                found.add(RetrievedPassage.of(passage.id(), passage.text()).withScore(hit.score)
                        .withSource(Map.of("title", passage.title(), "retriever", retriever)));
            }
            return found;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
