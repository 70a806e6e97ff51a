package dev.agentarena.samples.springai2;

import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/** The agent's tools: in production they call the order system and the ticket desk. */
public class OrderTools {

    /** The order number the order system does not know: looking it up throws, as it does in production. */
    public static final int UNKNOWN_ORDER = 404;

    @Tool(name = "lookup_order", description = "Looks up the status of an order by its number")
    public String lookupOrder(@ToolParam(description = "the order number") int orderId) {
        if (orderId == UNKNOWN_ORDER) {
            throw new IllegalArgumentException("Order " + orderId + " does not exist");
        }
        return "Order " + orderId + " shipped on 2 May and arrives within 3 days.";
    }

    @Tool(name = "refund", description = "Starts the refund of an order by its number")
    public String refund(@ToolParam(description = "the order number") int orderId) {
        return "The refund of order " + orderId + " is started; the money is back within 5 days.";
    }

    @Tool(name = "escalate", description = "Hands the conversation to a team lead, with the reason")
    public String escalate(@ToolParam(description = "the order number") int orderId,
            @ToolParam(description = "why a person must take over") String reason) {
        return "Ticket for order " + orderId + " opened (" + reason + "): a team lead calls within 24 hours.";
    }
}
