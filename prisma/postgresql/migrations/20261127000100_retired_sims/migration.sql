-- CreateTable
CREATE TABLE "RetiredSim" (
    "sim" TEXT NOT NULL,
    "mdn" TEXT NOT NULL,
    "carrier" TEXT NOT NULL,
    "ownerId" TEXT,
    "retiredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RetiredSim_pkey" PRIMARY KEY ("sim")
);
