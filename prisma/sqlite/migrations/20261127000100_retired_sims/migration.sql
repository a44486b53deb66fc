-- CreateTable
CREATE TABLE "RetiredSim" (
    "sim" TEXT NOT NULL PRIMARY KEY,
    "mdn" TEXT NOT NULL,
    "carrier" TEXT NOT NULL,
    "ownerId" TEXT,
    "retiredAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
