package dev.toolsmith.eventing;

/**
 * A place in the outbox's publishing order: the id of the transaction that wrote a row, then the row's
 * place among the rows of all transactions (an identity column). Rows are published in this order.
 */
record OutboxPosition(long txId, long position) {

    /** Before every row, including those migrated from the marking relay (transaction id 0). */
    static final OutboxPosition START = new OutboxPosition(-1, 0);
}
