// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each entry's symbol and signature agree with nccl.h, counted and typed independently here. */
class NcclEntryTests {

  /** The parameters of each entry point, counted from nccl.h. */
  private static final Map<NcclEntry, Integer> ARITY = new EnumMap<>(NcclEntry.class);

  static {
    ARITY.put(NcclEntry.GET_VERSION, 1);
    ARITY.put(NcclEntry.GET_UNIQUE_ID, 1);
    ARITY.put(NcclEntry.COMM_INIT_RANK, 4);
    ARITY.put(NcclEntry.COMM_INIT_ALL, 3);
    ARITY.put(NcclEntry.COMM_FINALIZE, 1);
    ARITY.put(NcclEntry.COMM_DESTROY, 1);
    ARITY.put(NcclEntry.COMM_ABORT, 1);
    ARITY.put(NcclEntry.COMM_COUNT, 2);
    ARITY.put(NcclEntry.COMM_CU_DEVICE, 2);
    ARITY.put(NcclEntry.COMM_USER_RANK, 2);
    ARITY.put(NcclEntry.COMM_GET_ASYNC_ERROR, 2);
    ARITY.put(NcclEntry.GET_ERROR_STRING, 1);
    ARITY.put(NcclEntry.GET_LAST_ERROR, 1);
    ARITY.put(NcclEntry.ALL_REDUCE, 7);
    ARITY.put(NcclEntry.BROADCAST, 7);
    ARITY.put(NcclEntry.REDUCE, 8);
    ARITY.put(NcclEntry.ALL_GATHER, 6);
    ARITY.put(NcclEntry.REDUCE_SCATTER, 7);
    ARITY.put(NcclEntry.SEND, 6);
    ARITY.put(NcclEntry.RECV, 6);
    ARITY.put(NcclEntry.GROUP_START, 0);
    ARITY.put(NcclEntry.GROUP_END, 0);
  }

  @Test
  void everyEntryHasItsOwnSymbolAndItIsAnNcclOne() {
    Set<String> symbols = new HashSet<>();
    for (NcclEntry entry : NcclEntry.values()) {
      assertTrue(entry.symbol().startsWith("nccl"), entry.symbol());
      assertTrue(symbols.add(entry.symbol()), "bound twice: " + entry.symbol());
    }
  }

  @Test
  void everyDescriptorTakesAsManyArgumentsAsTheCSignature() {
    assertEquals(NcclEntry.values().length, ARITY.size(), "an entry is missing from ARITY");
    for (NcclEntry entry : NcclEntry.values()) {
      assertEquals(ARITY.get(entry), entry.descriptor().argumentLayouts().size(), entry.symbol());
    }
  }

  @Test
  void onlyTheTwoTextGettersReturnAPointerTheRestAnNcclResult() {
    for (NcclEntry entry : NcclEntry.values()) {
      MemoryLayout returned = entry.descriptor().returnLayout().orElseThrow();
      boolean text = entry == NcclEntry.GET_ERROR_STRING || entry == NcclEntry.GET_LAST_ERROR;
      assertEquals(text ? ValueLayout.ADDRESS : ValueLayout.JAVA_INT, returned, entry.symbol());
    }
  }

  @Test
  void theCollectivesTakeOnlyPrimitivesSoACallNeedsNoSegment() {
    for (NcclEntry entry :
        new NcclEntry[] {
          NcclEntry.ALL_REDUCE,
          NcclEntry.BROADCAST,
          NcclEntry.REDUCE,
          NcclEntry.ALL_GATHER,
          NcclEntry.REDUCE_SCATTER,
          NcclEntry.SEND,
          NcclEntry.RECV
        }) {
      for (MemoryLayout argument : entry.descriptor().argumentLayouts()) {
        assertTrue(
            argument == ValueLayout.JAVA_LONG || argument == ValueLayout.JAVA_INT,
            entry.symbol() + " takes " + argument);
      }
    }
  }

  @Test
  void commInitRankTakesTheUniqueIdByValueAs128Bytes() {
    MemoryLayout id = NcclEntry.COMM_INIT_RANK.descriptor().argumentLayouts().get(2);
    assertTrue(id instanceof StructLayout, "ncclUniqueId is passed as a struct: " + id);
    assertEquals(128, id.byteSize());
    assertEquals(1, id.byteAlignment(), "a struct of chars");
  }
}
