package dev.agentarena.junit.engine.integration.spring;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;

import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.framework.AopConfigException;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

import dev.agentarena.junit.engine.integration.langchain4j.LangChain4jIntegration;
import dev.agentarena.junit.engine.models.CapturedRetrieval;
import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * Under {@code @RouteChatModelsToArena}, the application's LangChain4j {@code ContentRetriever} and
 * {@code RetrievalAugmentor} beans, proxied so that what each {@code retrieve} or {@code augment} call returns is
 * captured as the running case's passages ({@link CaseModelScope#retrieval()}); outside any case a call is only passed
 * on. The proxy subclasses the bean's class where it can (so injection by the concrete type still works), else
 * implements its interfaces; it changes no argument and no result.
 */
final class RetrievalCapturing implements BeanPostProcessor {

    /** The bean name under which this post-processor is registered. */
    static final String BEAN_NAME = "dev.agentarena.junit.retrievalCapturing";

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Optional<CapturedRetrieval.Level> level = LangChain4jIntegration.retrievalLevel(bean);
        if (level.isEmpty()) {
            return bean;
        }
        MethodInterceptor capture = invocation -> {
            Object returned = invocation.proceed();
            String method = invocation.getMethod().getName();
            if ((method.equals("retrieve") || method.equals("augment")) && invocation.getArguments().length == 1) {
                Optional<CapturedRetrieval> captured = CaseModelScope.retrieval();
                if (captured.isPresent()) {
                    List<RetrievedPassage> passages = LangChain4jIntegration.retrievedBy(returned);
                    if (!passages.isEmpty()) {
                        captured.get().add(level.get(), passages);
                    }
                }
            }
            return returned;
        };
        if (!Modifier.isFinal(bean.getClass().getModifiers())) {
            try {
                return proxy(bean, capture, true);
            }
            catch (AopConfigException | IllegalArgumentException | LinkageError e) {
                // a class that cannot be subclassed (no visible constructor, a sealed hierarchy): its interfaces
            }
        }
        return proxy(bean, capture, false);
    }

    private static Object proxy(Object bean, MethodInterceptor capture, boolean subclass) {
        ProxyFactory proxy = new ProxyFactory(bean);
        proxy.setProxyTargetClass(subclass);
        proxy.addAdvice(capture);
        return proxy.getProxy(bean.getClass().getClassLoader());
    }
}
